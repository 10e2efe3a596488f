import Foundation
import Testing

/// Code never branches on the wording of a message: errors, warnings and notes carry kinds
/// or codes set where they are raised, and what acts on them asks those. Words change for
/// readers; a comparison with them then goes silently wrong (a missing file offered no
/// near name, a GTFS warning counted under no notice). This reads every source file and
/// lists each line that compares, searches or prefix-tests a message's text.
@Suite struct MessageWordingTests {
    /// The words that name a message in an identifier: `message`, `e.message`, `warnings`,
    /// `keyHint`, `noteText` (a whole camel-case word, so `hinted` and `notable` are not one).
    static let words = ["message", "warning", "note", "notice", "description", "reason", "hint", "diagnostic", "says", "said"]

    static let patterns: [(name: String, regex: NSRegularExpression)] = {
        let lower = words.joined(separator: "|")
        let capitalised = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "|")
        // A dotted name whose last part is, or ends in, one of the words (plural too).
        let message = #"\b(?:[A-Za-z_][A-Za-z0-9_]*\??\.)*(?:"# + lower + #"|[A-Za-z0-9_]*[a-z0-9_](?:"# + capitalised
            + #"))s?(?![A-Za-z0-9_])\??"#
        let search = #"\s*\.(?:contains|hasPrefix|hasSuffix|firstRange|ranges)\s*[({]|\s*\.starts\(with:|\s*\.range\(of:|\s*\.replacingOccurrences\(of:"#
        let table: [(String, String)] = [
            // `e.message == "no such file"`, `"more" != reason`; not `hint == nil`, which asks whether there is one.
            ("a message compared", message + #"\s*(?:==|!=)(?!\s*nil\b)|(?<![=!<>])(?:==|!=)\s*"# + message),
            // `message.contains("missing cells")`, `warning.hasSuffix(" warnings")`, `d.message.replacingOccurrences(of: …)`.
            ("a message searched", message + "(?:" + search + ")"),
            ("a message switched on", #"\bswitch\s+"# + message + #"\s*\{"#),
            // An error's text made on the spot: `"\(error)".hasPrefix("expected")`.
            ("an error's text searched", #"(?:"\\\(\s*[A-Za-z_.]*\s*\)"|String\(describing:[^)]*\)|\.localizedDescription)(?:"# + search
                + #"|\s*(?:==|!=))"#),
            // Words put into a text to be told apart by later: `kind.hasPrefix(Self.wherePrefix)`, `wherePrefix + "…"`.
            ("a marker in a text", #"\.(?:hasPrefix|hasSuffix|starts\(with:)\(?\s*(?:[A-Z][A-Za-z0-9_]*\.)?[A-Za-z0-9_]*(?:Prefix|Suffix|Marker)\b"#
                + #"|\b[A-Za-z0-9_]*(?:Prefix|Suffix|Marker)\s*\+\s*""#),
        ]
        return table.map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }
    }()

    /// Lines that may stay, each for a reason: `file` and a piece of the line.
    static let allowed: [(file: String, line: String)] = [
        // Swift's regex parser says what is wrong only in words (its LocatedError<ErrorDiagnostic>
        // holds a text and no kind); the errors more text could mend are those that say what they expected.
        ("Sources/UTQCore/Values/RegexCheck.swift", #""\(error)".hasPrefix("expected")"#),
    ]

    /// The code of a line to match: string literals emptied, a comment after the code cut.
    static func code(_ line: String) -> String {
        let literal = try! NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
        var s = literal.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "\"\"")
        if let comment = s.range(of: "//") { s = String(s[..<comment.lowerBound]) }
        return s
    }

    /// The names of the patterns a line of source matches. The error's-text pattern reads
    /// the line with its literals, which it is about.
    static func findings(_ line: String) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("//") { return [] }
        let stripped = code(line)
        return patterns.compactMap { name, regex in
            let subject = name == "an error's text searched" ? line : stripped
            return regex.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) == nil ? nil : name
        }
    }

    /// `file:line: code  (pattern)` for each line of the sources that compares a message's text.
    static func scan(_ root: String) throws -> (files: Int, found: [(file: String, line: Int, text: String, why: [String])]) {
        let paths = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
        var found: [(file: String, line: Int, text: String, why: [String])] = []
        for relative in paths {
            let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
            var inMultilineString = false
            for (k, line) in text.components(separatedBy: "\n").enumerated() {
                // Lines of a """ literal are text (help pages, examples in utq's language), not code.
                if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle(); continue }
                if inMultilineString { continue }
                let why = findings(line)
                if !why.isEmpty { found.append(("Sources/" + relative, k + 1, line.trimmingCharacters(in: .whitespaces), why)) }
            }
        }
        return (paths.count, found)
    }

    @Test func noCodeComparesTheWordsOfAMessage() throws {
        let (files, found) = try Self.scan(Repo.path("Sources"))
        try #require(files > 0, "no .swift files under \(Repo.path("Sources"))")
        let isAllowed = { (f: (file: String, line: Int, text: String, why: [String])) in
            Self.allowed.contains { $0.file == f.file && f.text.contains($0.line) }
        }
        let wrong = found.filter { !isAllowed($0) }
        #expect(wrong.isEmpty, """
            these lines compare the text of a message; give it a kind or code where it is raised and ask that:
            \(wrong.map { "\($0.file):\($0.line): \($0.text)  (\($0.why.joined(separator: ", ")))" }.joined(separator: "\n"))
            """)
        // An allowance nothing needs any more goes, so the list only shrinks.
        for entry in Self.allowed where !found.contains(where: { $0.file == entry.file && $0.text.contains(entry.line) }) {
            Issue.record("\(entry.file): nothing matches the allowed \(entry.line); take it off the list")
        }
    }

    /// The patterns find the comparisons this rule was made against, and leave alone what
    /// asks a kind, whether there is a message, or lays a message out.
    @Test(arguments: [
        #"if e.message == "no such file", let near = FileOutput.nearestFile(to: full) {"#,
        #"all.first { n in n.says.contains { message.contains($0) } }?.code"#,
        #"if words.count == 3, words[1] == "more", let n = Int(words[0]), message.hasSuffix(" warnings") {"#,
        #"return order.compactMap { kind in texts[kind].map { ($0, !kind.hasPrefix(Self.wherePrefix)) } }"#,
        #"context.notes?.add(RunNotes.wherePrefix + "database pull \(i)", "runs in memory")"#,
        #"throw Diagnostic(d.message.replacingOccurrences(of: "refused", with: "lost"))"#,
        #"if !"\(error)".hasPrefix("expected") { return [end] }"#,
        #"if failure?.description.starts(with: "cannot") == true { retry() }"#,
        #"guard w.warning != "x" else { continue }"#,
        #"if keyHint.range(of: "wrong") != nil { }"#,
        #"switch e.reason {"#,
    ])
    func thePatternsFindAComparison(_ line: String) {
        #expect(!Self.findings(line).isEmpty, "\(line)")
    }

    @Test(arguments: [
        #"if e.kind == .noSuchFile, let near = FileOutput.nearestFile(to: full) {"#,
        #"if keyHint != nil {"#,
        #"let hinted = Set(names); if hinted.contains(name) { }"#,
        #"out += TextKey.flow(note.split(separator: " ").map(String.init), style, gap: 1)"#,
        #"throw LoadError(path: path, "the file is empty", kind: .emptyFile)"#,
        #"warnings.add("missing cells", line: recordLine, "where the message == header", kind: .rowLength)"#,
        #"// a comment saying message == "text" is no code"#,
        #"if line.hasPrefix("    ") || line.hasPrefix("\t") {"#,
    ])
    func thePatternsLeaveTheRestAlone(_ line: String) {
        #expect(Self.findings(line).isEmpty, "\(line): \(Self.findings(line))")
    }
}
