/// A piece of a script read as a lesson: a heading, a paragraph of prose, or a command.
public enum ScriptBlock: Sendable {
    /// `## Title` (level 2), `### Title` (level 3) …
    case heading(level: Int, text: String)
    /// Consecutive `#` comment lines, without the `#`; lines keep their breaks.
    case prose(String)
    case command(ScriptCommand)
    /// `#> PIPELINE`: an exercise's answer, a command that runs as any other unless a
    /// handout leaves answers out.
    case answer(ScriptCommand)
    /// `#? text`: a hint to the exercise it follows.
    case hint(String)
    /// `#x PIPELINE`: a wrong answer a lesson's check must see rejected; never run or shown.
    /// One line (and the lines it goes on over) is one wrong answer, of one or more commands.
    case wrong([ScriptCommand])
    /// `#+ PIPELINE`: another right answer (`count by status | where status = "cancelled"`
    /// beside `where status = "cancelled" | count`); graded as the answer is, never run or shown.
    case alternative([ScriptCommand])
    /// `#= exact`: how an exercise is graded; `exact` asks for the answer's columns and no more.
    case rule(String)
}

/// Reads a script as a literate file, so one `.utq` file is both a runnable script and the
/// text of a lesson: `## ` comment lines are headings, the other whole-line `#` comments are
/// prose (a blank line or a bare `#` ends a paragraph), and commands stay commands. Comments
/// inside a command that goes on over several lines stay part of it. A `#!` first line is
/// dropped.
public enum LiterateScript {
    public static func blocks(in source: SourceText) -> [ScriptBlock] {
        let commands = Script.commands(in: source)
        let bytes = source.bytes
        var out: [ScriptBlock] = []
        var paragraph: [String] = []
        func endParagraph() {
            if !paragraph.isEmpty { out.append(.prose(paragraph.joined(separator: "\n"))) }
            paragraph = []
        }

        var next = 0  // the next command to place
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let firstLine = lineStart == 0
            defer { lineStart = lineEnd + 1 }
            if next < commands.count && commands[next].span.start <= lineEnd {
                // Commands that start on this line, and the lines they run on over.
                endParagraph()
                // The lines covered grow with each command that runs on over them, and so
                // take in a command that starts on the last of them (`count |\n sort; count`).
                var covered = lineEnd
                while next < commands.count && commands[next].span.start <= covered {
                    var end = max(covered, commands[next].span.end)
                    while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                    covered = end
                    out.append(.command(commands[next]))
                    next += 1
                }
                lineEnd = covered
                continue
            }
            let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if firstLine && trimmed.hasPrefix("#!") { continue }
            guard trimmed.hasPrefix("#") else {
                endParagraph()  // a blank line (or a stray ;) ends a paragraph
                continue
            }
            if let kind = ExerciseLines.kind(trimmed) {
                endParagraph()
                // Consecutive lines of one kind are one text (a pipeline may go on over lines).
                // A wrong answer goes on only where its line ends in | or , (each #x line is
                // a wrong answer of its own); answer lines all make one answer.
                var end = lineEnd
                var current = trimmed
                while end < bytes.count {
                    var nextEnd = end + 1
                    while nextEnd < bytes.count && bytes[nextEnd] != 0x0A { nextEnd += 1 }
                    let following = String(decoding: bytes[(end + 1)..<nextEnd], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    guard kind != "?", kind != "=", ExerciseLines.kind(following) == kind else { break }
                    if (kind == "x" || kind == "+") && !(current.hasSuffix("|") || current.hasSuffix(",")) { break }
                    end = nextEnd
                    current = following
                }
                out += ExerciseLines.blocks(kind, source, lineStart, end)
                lineEnd = end
                continue
            }
            let hashes = trimmed.prefix { $0 == "#" }.count
            let rest = trimmed.dropFirst(hashes)
            let text = (rest.first == " " ? rest.dropFirst() : rest).trimmingCharacters(in: .whitespaces)
            if hashes >= 2 && (rest.first == " " || rest.isEmpty) && !text.isEmpty {
                endParagraph()
                out.append(.heading(level: min(hashes, 4), text: text))
            } else if text.isEmpty {
                endParagraph()
            } else {
                // Keep the indentation after `# ` so indented prose (an example, a list) stays so.
                let body = rest.first == " " ? String(rest.dropFirst()) : String(rest)
                var kept = body
                while kept.hasSuffix(" ") { kept.removeLast() }
                paragraph.append(hashes == 1 ? kept : String(repeating: "#", count: hashes - 1) + kept)
            }
        }
        endParagraph()
        out += commands[next...].map { .command($0) }
        return out
    }
}

/// The lines of an exercise: `#>` answers, `#+` other right answers, `#?` hints, `#x` wrong
/// answers, `#=` how it is graded.
enum ExerciseLines {
    /// ">", "?", "x", "+" or "=" for a line that starts with one of the marks, else nil.
    static func kind(_ trimmed: String) -> String? {
        for mark in [">", "?", "x", "+", "="] where trimmed.hasPrefix("#" + mark) {
            let after = trimmed.dropFirst(2).first
            if after == nil || after == " " { return mark }
        }
        return nil
    }

    /// The blocks of the lines from `start` to `end`: a hint's text, or commands read from the
    /// file with everything but the pipelines blanked, so their lines and columns are the file's.
    static func blocks(_ kind: String, _ source: SourceText, _ start: Int, _ end: Int) -> [ScriptBlock] {
        var bytes = source.bytes
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        if kind == "?" || kind == "=" {
            let words = text.trimmingCharacters(in: .whitespaces).dropFirst(2).trimmingCharacters(in: .whitespaces)
            return words.isEmpty ? [] : [kind == "?" ? .hint(words) : .rule(words.lowercased())]
        }
        for i in bytes.indices where (i < start || i >= end) && bytes[i] != 0x0A { bytes[i] = 0x20 }
        // Blank each line's mark (`#>`, `#x`) too.
        var i = start
        while i < end {
            while i < end && bytes[i] == 0x20 { i += 1 }
            if i + 1 < end && bytes[i] == UInt8(ascii: "#") { bytes[i] = 0x20; bytes[i + 1] = 0x20 }
            while i < end && bytes[i] != 0x0A { i += 1 }
            i += 1
        }
        let masked = SourceText(name: source.name, text: String(decoding: bytes, as: UTF8.self))
        let commands = Script.commands(in: masked)
        if kind == ">" { return commands.map { .answer($0) } }
        return commands.isEmpty ? [] : [kind == "+" ? .alternative(commands) : .wrong(commands)]
    }
}

import Foundation
