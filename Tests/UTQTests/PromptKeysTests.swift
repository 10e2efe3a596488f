import Foundation
import Testing
@testable import UTQCore

/// The prompt's keys as a newcomer first presses them, in a real pseudo-terminal: Tab,
/// Ctrl-R, Ctrl-C and Ctrl-D. Each step waits for what the terminal must show first, so a
/// loaded machine slows a test down rather than typing into a prompt not yet there.
@Suite(.serialized) struct PromptKeysTests {
    static let noHistory = ["UTQ_HISTORY": "", "PTY_WINSIZE": "24x100"]

    /// No crash, no stack, no error on the way.
    func expectCalm(_ screen: String) {
        for bad in ["Fatal error", "Stack dump", "error:", "Segmentation"] {
            #expect(!screen.contains(bad), "\(bad) in: \(screen.debugDescription)")
        }
    }

    @Test func tabCompletesTheColumnBeforeAFunctionOfTheSameStart() throws {
        // count by le: the column legend and the function len both start so; the column
        // is what a key names, so one Tab writes it whole, with the space after.
        let r = try runUTQInTerminal([(0.3, "load datasets/market.json\n"), (0.3, "count by le\t"), (0.5, "\n"), (0.5, "\u{4}")],
                                     environment: Self.noHistory, seen: [0: "utq> ", 1: "entries", 2: "gend ", 3: "Walking"])
        #expect(r.status == 0)
        #expect(r.screen.contains("Walking") && r.screen.contains("451"), "\(r.screen.debugDescription)")
        // Nothing was listed: the one column was the answer.
        #expect(!r.screen.contains("len "), "\(r.screen.debugDescription)")
        expectCalm(r.screen)
    }

    @Test func oneTabCompletesWhatTheChoicesShareASecondListsThem() throws {
        // set ti: time, timer and timezone share "time". The first Tab writes it and lists
        // nothing; the second lists the three, once; then the line goes on as typed.
        let r = try runUTQInTerminal([(0.3, "set ti\t"), (0.5, "\t"), (0.5, "r on\n"), (0.5, "\u{4}")],
                                     environment: Self.noHistory, seen: [0: "utq> ", 1: "me", 2: "timezone", 3: "utq> "])
        #expect(r.status == 0)
        let listings = r.screen.components(separatedBy: "timezone").count - 1
        #expect(listings == 1, "\(r.screen.debugDescription)")
        let list = r.screen.range(of: "timezone")!.lowerBound
        // The line stands as the first Tab made it when the list is drawn under it.
        #expect(r.screen[..<list].contains("time") && r.screen[list...].contains("utq> set time"), "\(r.screen.debugDescription)")
        #expect(r.screen.contains("utq> set timer on"), "\(r.screen.debugDescription)")
        expectCalm(r.screen)
    }

    @Test func ctrlRSaysWhatItDoesAndFindsLinesOfTheHistoryFile() throws {
        // Lines of an earlier session, in libedit's file (spaces written \040).
        let history = try temporaryFile("history-search", "_HiStOrY_V2_\nload\\040datasets/market.json\ncount\\040by\\040legend\ntables\n")
        let r = try runUTQInTerminal([(0.3, "\u{12}"), (0.3, "loa"), (0.3, "\n"), (0.3, "\u{12}leg"), (0.3, "\n"),
                                      (0.3, "\u{12}zzz"), (0.3, "\u{7}"), (0.3, "\u{4}")],
                                     environment: ["UTQ_HISTORY": history, "PTY_WINSIZE": "24x100"],
                                     seen: [0: "utq> ", 1: "(reverse-i-search)`':", 2: "market.json", 3: "entries", 4: "count by legend",
                                            5: "Walking", 6: "(failing reverse-i-search)`zzz'", 7: "utq> "])
        #expect(r.status == 0)
        #expect(r.screen.contains("(reverse-i-search)`loa': load datasets/market.json"), "\(r.screen.debugDescription)")
        #expect(r.screen.contains("(reverse-i-search)`leg': count by legend"), "\(r.screen.debugDescription)")
        // Enter ran what was found: the load, then the count.
        #expect(r.screen.contains("516 entries") && r.screen.contains("Walking"), "\(r.screen.debugDescription)")
        #expect(r.screen.contains("(failing reverse-i-search)`zzz'"), "\(r.screen.debugDescription)")
        // libedit's own search would say only bck:.
        #expect(!r.screen.contains("bck:"), "\(r.screen.debugDescription)")
        expectCalm(r.screen)
    }

    @Test func ctrlCAbandonsAHalfTypedLineAndGivesAFreshPrompt() throws {
        // The cursor is moved back into the line first: ^C still comes after the whole of it.
        let r = try runUTQInTerminal([(0.3, "count by leg"), (0.3, "\u{1B}[D\u{1B}[D"), (0.3, "\u{3}"), (0.3, "echo fresh\n"), (0.5, "\u{4}")],
                                     environment: Self.noHistory, seen: [0: "utq> ", 1: "leg", 3: "utq> ", 4: "fresh"])
        #expect(r.status == 0)
        // The whole line, then ^C, then a new line and a new prompt.
        #expect(r.screen.contains("eg^C\r\nutq> "), "\(r.screen.debugDescription)")
        #expect(!r.screen.contains("l^C"), "\(r.screen.debugDescription)")
        // The abandoned line never ran (no table is loaded: it would have failed).
        #expect(r.screen.contains("\r\nfresh"), "\(r.screen.debugDescription)")
        expectCalm(r.screen)
    }

    @Test func ctrlDOnAnEmptyLineLeavesTheShellItsOwnLine() throws {
        // In a shell, as a person runs utq: after Ctrl-D the shell's prompt starts a line.
        let r = try runUTQInTerminal([(0.5, "'\(Repo.utqBinary)'\n"), (0.5, "\u{4}"), (0.5, "echo after\n"), (0.5, "exit\n")],
                                     environment: ["UTQ_HISTORY": "", "PS1": "$ "], program: ["bash", "--norc", "--noprofile", "-i"],
                                     seen: [1: "utq> ", 2: "^D", 3: "after"])
        let afterUTQ = r.screen.components(separatedBy: "utq> ").last ?? ""
        // The shell's prompt comes after a line break, not on utq's line.
        #expect(afterUTQ.hasPrefix("^D\r\n"), "\(r.screen.debugDescription)")
        #expect(r.screen.contains("after"), "\(r.screen.debugDescription)")
        expectCalm(r.screen)
    }
}
