import Foundation
import Testing
@testable import UTQCore

/// Help and `utq --help` fitted to the terminal: broken between words, never inside one or
/// inside an example command, lists' meanings wrapped under themselves.
@Suite struct HelpLayoutTests {
    static let widths = [40, 60, 80, 100]

    static func words(_ s: String) -> [Substring] { s.split(whereSeparator: { $0 == " " || $0 == "\n" }) }

    /// Every topic of help, and the overview.
    static func everyText() throws -> [(name: String, text: String, examples: [String])] {
        try Help.registry.map { ($0.name, try Help.text(for: $0.name), $0.examples) } + [("overview", Help.overview(), [])]
    }

    @Test(arguments: widths) func everyTopicKeepsItsWordsAndFitsTheWidth(_ width: Int) throws {
        for (name, text, examples) in try Self.everyText() {
            let fitted = TextWrap.fit(text, width: width)
            // The same words in the same order: only the spaces and line breaks between them move.
            #expect(Self.words(fitted) == Self.words(text), "help \(name) at \(width)")
            let written = Set(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            for line in fitted.split(separator: "\n").map(String.init) where TextWidth.of(line) > width {
                // Wider only where breaking would cut a word or a command: a line as written
                // (a usage, an example), a list's term alone, or a single word.
                let term = written.contains { $0.hasPrefix(line + "  ") }
                #expect(written.contains(line) || term || Self.words(line).count == 1, "help \(name) at \(width): \(line)")
            }
            // Examples stand whole on lines of their own.
            for example in examples {
                #expect(fitted.contains("\n  " + example + "\n"), "help \(name) at \(width): \(example)")
            }
        }
    }

    @Test func textThatFitsIsLeftAsWritten() throws {
        for (name, text, _) in try Self.everyText() {
            #expect(TextWrap.fit(text, width: 1000) == text, "help \(name)")
        }
    }

    @Test func aParagraphIsWrappedAgainAsOne() {
        let text = """
        The format is detected: a Behaviour Mapper project (.json) or its CSV export, Prishtina
        routes or itineraries, a GTFS feed.
        Options:
          header=true|false   whether the first line names the columns (detected when not given)
        """
        #expect(TextWrap.fit(text, width: 50) == """
        The format is detected: a Behaviour Mapper project
        (.json) or its CSV export, Prishtina routes or
        itineraries, a GTFS feed.
        Options:
          header=true|false   whether the first line names
                              the columns (detected when
                              not given)
        """)
    }

    @Test func aLineEndedShortStaysALine() {
        // The author ended the first line early: it is not run into the second.
        let text = "Short line.\n" + String(repeating: "word ", count: 20).trimmingCharacters(in: .whitespaces)
        let fitted = TextWrap.fit(text, width: 40)
        #expect(fitted.hasPrefix("Short line.\nword word"), "\(fitted)")
    }

    @Test func aMeaningGoesUnderItsTermWhenTooLittleRoomIsLeftBesideIt() {
        let text = "Examples:\n  utq notebook lesson.utq -o lesson.html   write a notebook of a script\n  utq -c 'load datasets/market.json; count by legend, hour'"
        #expect(TextWrap.fit(text, width: 50) == """
        Examples:
          utq notebook lesson.utq -o lesson.html
              write a notebook of a script
          utq -c 'load datasets/market.json; count by legend, hour'
        """)
    }

    @Test func aUsageGoesOnUnderItself() {
        let text = "Usage: utq run [<scripts> ...] [--command <text> ...] [--keep-going] [--echo] [--force]"
        #expect(TextWrap.fit(text, width: 50) == """
        Usage: utq run [<scripts> ...] [--command <text>
               ...] [--keep-going] [--echo] [--force]
        """)
    }

    // MARK: the command line's help

    /// utq's help in a pipe: COLUMNS empty stands for "not set".
    func commandLineHelp(_ arguments: [String], columns: String = "") throws -> String {
        let r = try runUTQ(arguments, environment: ["COLUMNS": columns])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test(arguments: [["--help"], ["run", "--help"], ["notebook", "--help"], ["lesson", "--help"]])
    func theCommandLinesHelpIsWrappedBetweenWords(_ arguments: [String]) throws {
        let wide = try commandLineHelp(arguments, columns: "1000")
        for (columns, width) in [("", 80), ("60", 60)] {
            let text = try commandLineHelp(arguments, columns: columns)
            #expect(Self.words(text) == Self.words(wide), "\(arguments) at \(width)")
            let written = Set(wide.split(separator: "\n").map(String.init))
            for line in text.split(separator: "\n").map(String.init) where TextWidth.of(line) > width {
                #expect(written.contains(line) || written.contains { $0.hasPrefix(line + "  ") }, "\(arguments) at \(width): \(line)")
            }
        }
    }

    @Test func theExamplesOfUtqHelpStayWhole() throws {
        let text = try commandLineHelp(["--help"], columns: "60")
        #expect(text.contains("\n  utq -c 'load datasets/market.json; count by legend, hour'\n"))
        #expect(text.contains("\n  utq notebook lesson.utq -o lesson.html\n"))
        // The options' meanings stand in their column, under themselves.
        #expect(text.contains("  run (default)           Run scripts and commands, or open\n                          the prompt"), "\(text)")
    }

    @Test func helpInAPipeIsWrappedTo80Columns() throws {
        let text = try commandLineHelp(["-c", "help"])
        #expect(Self.words(text) == Self.words(Help.overview()))
        for line in text.split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 80, "\(line)") }
        // A terminal's COLUMNS is followed.
        let narrow = try commandLineHelp(["-c", "help load"], columns: "50")
        for line in narrow.split(separator: "\n") where !line.hasPrefix("  load ") {
            #expect(TextWidth.of(String(line)) <= 50, "\(line)")
        }
    }
}
