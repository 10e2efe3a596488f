import Foundation
import Testing

/// Expected output kept in a file of the repository: compared, or written anew when the
/// environment says `UTQ_RECORD=1`, so a change shows as a diff a reviewer reads.
enum Snapshot {
    static let record = ProcessInfo.processInfo.environment["UTQ_RECORD"] == "1"

    static func check(_ actual: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = Repo.path(file)
        if record {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("\(file) is missing; UTQ_RECORD=1 swift test records it", sourceLocation: sourceLocation)
            return
        }
        #expect(expected == actual, "\(file) differs; UTQ_RECORD=1 swift test re-records it", sourceLocation: sourceLocation)
    }
}
