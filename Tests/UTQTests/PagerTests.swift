import Foundation
import Testing
@testable import UTQCore

/// Help taller than the window is paged at the prompt, and only there: never in a pipe, a
/// script or `-c`, nor when paging is turned off.
@Suite(.serialized) struct PagerTests {
    /// A 24-line terminal, as a classroom's default window.
    static let terminal = ["UTQ_HISTORY": "", "PTY_WINSIZE": "24x100", "LINES": "24"]

    /// The overview's last line: not on the screen when the pager stopped after a page.
    static let lastLine = "rides | count by hour"

    /// A pager that only keeps what it was given, so the test can read it.
    func recordingPager() throws -> (command: String, file: String) {
        let file = try temporaryFile("paged-\(UUID().uuidString).txt", "")
        unlink(file)
        return ("cat >> '\(file)'", file)
    }

    func read(_ file: String) -> String? { try? String(contentsOfFile: file, encoding: .utf8) }

    @Test func longHelpGoesThroughThePagerShortHelpDoesNot() throws {
        let pager = try recordingPager()
        let r = try runUTQInTerminal([(0.3, "help\n"), (0.5, "help count\n"), (0.5, "\u{4}")],
                                     environment: Self.terminal.merging(["PAGER": pager.command]) { $1 },
                                     seen: [0: "utq> ", 1: "utq> ", 2: "count by weekday"])
        #expect(r.status == 0)
        let paged = try #require(read(pager.file))
        // The whole overview, fitted to the terminal, went to the pager and not the screen.
        #expect(paged.contains("Loading and tables") && paged.contains(Self.lastLine), "\(paged)")
        #expect(!r.screen.contains(Self.lastLine), "\(r.screen.debugDescription)")
        // help count fits the window: printed, not paged.
        #expect(r.screen.contains("count by weekday"))
        #expect(!paged.contains("count by weekday"))
    }

    @Test func lessShowsTheFirstScreenAndQLeavesItAtThePrompt() throws {
        try #require(access("/usr/bin/less", X_OK) == 0, "less is not installed")
        let r = try runUTQInTerminal([(0.3, "help\n"), (0.5, "q"), (0.5, "echo back at the prompt\n"), (0.5, "\u{4}")],
                                     environment: Self.terminal.merging(["PAGER": ""]) { $1 },
                                     seen: [0: "utq> ", 1: "Loading and tables", 2: "utq> ", 3: "back at the prompt"])
        #expect(r.status == 0)
        #expect(r.screen.contains("Loading and tables"))
        // less stopped after its first screen: the end of the overview was never drawn.
        #expect(!r.screen.contains(Self.lastLine), "\(r.screen.debugDescription)")
        #expect(r.screen.contains("back at the prompt"))
    }

    @Test func withoutLessUtqPagesItself() throws {
        // A line from the middle of the overview's second page (23 lines a page under the
        // 24-row window), taken from the overview itself so the test follows its length.
        let overview = try runUTQ(["-c", "help"], environment: ["COLUMNS": "100"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let secondPage = try #require(overview.dropFirst(23).prefix(20).last { $0.trimmingCharacters(in: .whitespaces).count > 8 }
            .map { $0.trimmingCharacters(in: .whitespaces) })
        try #require(!overview.prefix(23).contains { $0.contains(secondPage) })
        // No less on PATH and no PAGER: utq's own "-- more --".
        let r = try runUTQInTerminal([(0.3, "help\n"), (0.5, " "), (0.5, "q"), (0.5, "echo back at the prompt\n"), (0.5, "\u{4}")],
                                     environment: Self.terminal.merging(["PAGER": ""]) { $1 },
                                     program: ["/usr/bin/env", "PATH=/nonexistent", Repo.utqBinary],
                                     seen: [0: "utq> ", 1: "-- more (space, q) --", 2: secondPage, 3: "utq> ", 4: "back at the prompt"])
        #expect(r.status == 0)
        let firstPrompt = try #require(r.screen.range(of: "-- more (space, q) --"))
        // A page at a time: the second page only after the space.
        #expect(r.screen[..<firstPrompt.lowerBound].contains("Loading and tables"))
        #expect(!r.screen[..<firstPrompt.lowerBound].contains(secondPage))
        #expect(r.screen[firstPrompt.upperBound...].contains(secondPage), "\(secondPage) not on the second page")
        // q stopped it before the end.
        #expect(!r.screen.contains(Self.lastLine), "\(r.screen.debugDescription)")
    }

    @Test func aPagerThatCannotRunLeavesTheHelpToUtqsOwn() throws {
        let r = try runUTQInTerminal([(0.3, "help\n"), (0.5, "q"), (0.5, "\u{4}")],
                                     environment: Self.terminal.merging(["PAGER": "no-such-pager-here"]) { $1 },
                                     seen: [0: "utq> ", 1: "-- more (space, q) --", 2: "utq> "])
        #expect(r.status == 0)
        #expect(r.screen.contains("Loading and tables") && r.screen.contains("-- more (space, q) --"), "\(r.screen.debugDescription)")
    }

    @Test func turnedOffByUTQ_PAGERorSetPagerHelpIsPrintedWhole() throws {
        let pager = try recordingPager()
        let env = Self.terminal.merging(["PAGER": pager.command]) { $1 }
        let off = try runUTQInTerminal([(0.3, "help\n"), (0.5, "\u{4}")], environment: env.merging(["UTQ_PAGER": "off"]) { $1 },
                                       seen: [0: "utq> ", 1: Self.lastLine])
        #expect(off.screen.contains(Self.lastLine) && off.screen.contains("Loading and tables"))
        let set = try runUTQInTerminal([(0.3, "set pager off\n"), (0.5, "help\n"), (0.5, "\u{4}")], environment: env,
                                       seen: [0: "utq> ", 1: "utq> ", 2: Self.lastLine])
        #expect(set.screen.contains(Self.lastLine))
        #expect(read(pager.file) == nil, "the pager ran")
    }

    @Test func aPipeAScriptAndCommandsAreNeverPaged() throws {
        let pager = try recordingPager()
        let script = try temporaryFile("help-script.utq", "help\n")
        for arguments in [["-c", "help"], [script]] {
            let r = try runUTQ(arguments, environment: ["PAGER": pager.command, "LINES": "24"])
            #expect(r.status == 0)
            #expect(r.stdout.contains(Self.lastLine), "\(arguments)")
        }
        // Standard output a pipe while the keys come from a terminal: no pager either.
        let piped = try runUTQInTerminal([(0.3, "help\n"), (0.5, "\u{4}")], environment: Self.terminal.merging(["PAGER": pager.command]) { $1 },
                                         program: ["sh", "-c", "'\(Repo.utqBinary)' | cat"], seen: [1: Self.lastLine])
        #expect(piped.screen.contains(Self.lastLine))
        #expect(read(pager.file) == nil, "the pager ran")
    }
}
