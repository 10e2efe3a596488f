import Foundation
import Testing
@testable import UTQCore

/// Presenter mode on a screen: a command typed at a step stays above its output, and a step
/// left with back leaves the screen.
@Suite struct PresenterScreenTests {
    @Test func aTypedCommandStaysAboveItsOutputAndBackClearsTheStep() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-present-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.utq").path
        try "load datasets/market.json\ncount by legend\ncount by hour\n".write(toFile: path, atomically: true, encoding: .utf8)
        let keys: [(wait: Double, text: String)] = [
            (1.0, "\n"),                                                 // step 1: load
            (1.5, "where legend = \"Jogging\" | count as joggers\n"),    // typed at step 2
            (1.5, "back\n"),                                             // step 2 left, unrun
            (1.5, "q\n"),
        ]
        let r = try runUTQInTerminal(keys, arguments: ["--step", path], environment: ["UTQ_HISTORY": ""],
                                     seen: [1: "step 2 of 3", 2: "joggers", 3: "step 1 of 3"])
        let screen = ScreenText.render(r.screen)
        let typed = try #require(screen.firstIndex { $0.contains("utq> where legend = \"Jogging\" | count as joggers") }, "\(screen)")
        let table = try #require(screen.firstIndex { $0.hasPrefix("joggers") }, "\(screen)")
        #expect(typed < table, "the typed command is above its table")
        // Step 2's command shows again after the typed one, and back takes it off the screen:
        // the last lines are step 1's command again, not step 2's.
        let afterTable = screen[table...]
        #expect(!afterTable.contains { $0.contains("utq> count by legend") }, "\(screen)")
        #expect(screen.last { $0.hasPrefix("utq> ") } == "utq> load datasets/market.json")
    }
}
