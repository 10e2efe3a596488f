import Foundation
import Testing
@testable import UTQCore

/// What utq reads at start-up without Foundation's slower ways: the machine's zone from the
/// link /etc/localtime is, and single environment variables.
@Suite struct StartupPathsTests {
    @Test func theZoneIsTheNameTheLinkEndsIn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-localtime-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let link = dir + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Europe/Oslo")
        #expect(ZoneRules.linkedZoneName(link) == "Europe/Oslo")
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../usr/share/zoneinfo/America/Argentina/Buenos_Aires")
        #expect(ZoneRules.linkedZoneName(link) == "America/Argentina/Buenos_Aires")
        // A copy of a zone file, not a link, says nothing: Foundation is asked then.
        try FileManager.default.removeItem(atPath: link)
        _ = FileManager.default.createFile(atPath: link, contents: Data("TZif".utf8))
        #expect(ZoneRules.linkedZoneName(link) == nil)
        #expect(ZoneRules.linkedZoneName(dir + "/none") == nil)
    }

    @Test func anEnvironmentVariableIsReadAsSet() {
        setenv("UTQ_STARTUP_TEST", "a=b ç", 1)
        #expect(Environment.value("UTQ_STARTUP_TEST") == "a=b ç")
        unsetenv("UTQ_STARTUP_TEST")
        #expect(Environment.value("UTQ_STARTUP_TEST") == nil)
    }
}
