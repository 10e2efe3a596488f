import Foundation
@testable import UTQCore

/// The kernel's protocol: each line of the input is one request to `utq kernel`, as the
/// Jupyter kernel sends them (execute, complete, inspect, is_complete, or anything else a
/// line may hold), answered by one session working in the repository with the market study
/// at hand. Every reply must be a JSON object that serializes, carrying the request's id, and
/// an execute must end with one `done`. The session writes no files.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKernel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).prefix(20).map(String.init)
    let requests = lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    // Only an execute reads or writes files; its code, decoded, must stay in the repository.
    for request in requests {
        guard let request, request["op"] as? String == "execute", let code = request["code"] as? String else { continue }
        guard Fuzz.staysInTheRepository(code) else { return -1 }
    }
    let session = Session(workingDirectory: Fuzz.root, defaultZone: .utc)
    session.settings.render = Fuzz.options
    session.files.searchesFoldersAbove = true
    session.files.unwritten = UnwrittenFiles(reason: "fuzzing writes no files")
    var replies: [[String: Any]] = []
    let server = KernelServer(session: session) { reply in
        guard JSONSerialization.isValidJSONObject(reply),
              (try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])) != nil else {
            fatalError("a reply that is not JSON: \(reply)")
        }
        replies.append(reply)
    }
    for (line, request) in zip(lines, requests) {
        replies = []
        server.handle(line)
        if let request, request["op"] as? String == "execute" {
            let done = replies.filter { $0["done"] as? Bool == true }
            if done.count != 1 { fatalError("an execute ended with \(done.count) done replies") }
        } else if replies.count != 1 {
            fatalError("\(request?["op"] ?? "a request") answered with \(replies.count) replies")
        }
    }
    return 0
}
