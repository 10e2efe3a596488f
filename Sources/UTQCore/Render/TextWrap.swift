/// Help text fitted to a width (a terminal's, or 80 columns in a pipe): lines are broken
/// between words, never inside one, and the text keeps its shape.
///
/// Help is written by hand, wrapped at about 90 columns, with three kinds of line:
/// - prose: a paragraph's lines run on into each other where the author wrapped them (a
///   line that ends well short of that width ended on purpose) and are wrapped again as one;
///   indented prose is the explanation under an indented line (help chart's kinds);
/// - a list's entry, `  term   what it means`: the meaning is wrapped under itself, and the
///   lines already indented to it are its continuation; when too little room is left beside
///   the term, the meaning goes under it, indented;
/// - commands (usages, the indented lines under `Examples` and in the text): never broken,
///   however long; where one is followed by what it does, that is wrapped under itself.
/// A block whose lines all fit is left exactly as written.
public enum TextWrap {
    /// An author's line that would have taken the next word past this width was wrapped by
    /// the author; a shorter one ended on purpose.
    static let authorWidth = 78
    /// Fewer columns than this beside a term, and its meaning goes under it.
    static let narrowest = 20

    /// One paragraph broken between words into lines of at most `width` columns (a word
    /// longer than that on a line of its own).
    static func words(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && TextWidth.of(line) + 1 + TextWidth.of(String(word)) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }

    /// Each line longer than `width` broken between words, its further lines led by `indent`
    /// spaces (a warning's text under its text, not under "warning:"); lines that fit, and a
    /// word longer than the width, are left as they are.
    public static func hanging(_ text: String, width: Int, indent: Int) -> String {
        let lead = String(repeating: " ", count: indent)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let line = String(line)
            guard TextWidth.of(line) > width, width > indent + 20 else { return line }
            var pieces = words(line, width: width)
            guard pieces.count > 1 else { return line }
            // The first line keeps its width; the rest are wrapped again within the indent.
            let rest = words(pieces.dropFirst().joined(separator: " "), width: width - indent)
            pieces = [pieces[0]] + rest.map { lead + $0 }
            return pieces.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    public static func fit(_ text: String, width: Int) -> String {
        let width = max(width, 20)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var k = 0
        var inExamples = false
        // The indent of the line before, nil after a blank line.
        var previousIndent: Int? = nil
        while k < lines.count {
            let line = lines[k]
            let shape = Shape(line)
            if shape.blank {
                out.append(line)
                inExamples = false
                previousIndent = nil
                k += 1
                continue
            }
            // An indented line is a command (a usage, an example) unless it is an entry, or
            // it explains the indented line above it, indented further (help chart's kinds).
            let explains = previousIndent.map { $0 > 0 && shape.indent > $0 } ?? false
            if shape.indent > 0 && shape.meaning == nil && (inExamples || !explains) {
                out.append(line)
                previousIndent = shape.indent
                k += 1
                continue
            }
            if shape.indent == 0 { inExamples = isExamplesHeading(line) }
            // The block: this line and the lines that continue it.
            var block = [line]
            var j = k + 1
            while j < lines.count, continues(block.last!, shape: shape, with: lines[j]) {
                block.append(lines[j])
                j += 1
            }
            k = j
            previousIndent = Shape(block.last!).indent
            if block.allSatisfy({ TextWidth.of($0) <= width }) {
                out += block
            } else {
                out += wrap(block, shape: shape, width: width)
            }
        }
        return out.joined(separator: "\n")
    }

    /// Where a line's text starts, and for a list's entry where its meaning starts.
    struct Shape {
        var blank: Bool
        var indent: Int
        /// The column of an entry's meaning (`  term   meaning`), or nil for prose.
        var meaning: Int?

        init(_ line: String) {
            let chars = Array(line)
            indent = chars.prefix { $0 == " " }.count
            blank = indent == chars.count
            meaning = nil
            guard indent > 0, !blank else { return }
            // Two spaces or more after the term, then the meaning.
            var i = indent
            while i + 2 < chars.count {
                if chars[i] == " " && chars[i + 1] == " " {
                    var m = i
                    while m < chars.count && chars[m] == " " { m += 1 }
                    if m < chars.count { meaning = TextWidth.of(String(chars[..<m])) }
                    return
                }
                i += 1
            }
        }
    }

    static func isExamplesHeading(_ line: String) -> Bool {
        ["examples", "examples:"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }

    static func words(_ s: Substring) -> [Substring] { s.split(separator: " ") }

    /// Whether `next` goes on from `last`, in a block that started with a line of `shape`.
    static func continues(_ last: String, shape: Shape, with next: String) -> Bool {
        let n = Shape(next)
        if n.blank { return false }
        // An entry's meaning runs on in lines indented to it.
        if let column = shape.meaning { return n.indent == column }
        guard n.indent == shape.indent, n.meaning == nil else { return false }
        // A word or two ending in a colon heads what follows (Options:).
        let trimmed = next.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(":") && words(Substring(trimmed)).count <= 2 { return false }
        guard let first = words(Substring(trimmed)).first else { return false }
        return TextWidth.of(last) + 1 + TextWidth.of(String(first)) > authorWidth
    }

    static func wrap(_ block: [String], shape: Shape, width: Int) -> [String] {
        if let column = shape.meaning {
            let chars = Array(block[0])
            // The term, as written, and where its meaning started.
            var termEnd = shape.indent
            while termEnd + 1 < chars.count && !(chars[termEnd] == " " && chars[termEnd + 1] == " ") { termEnd += 1 }
            let term = String(chars[..<termEnd])
            let meaning = ([String(chars[termEnd...])] + block.dropFirst()).flatMap { words(Substring($0)) }
            if width - column >= narrowest {
                let lines = fill(meaning, width: width - column)
                let pad = String(repeating: " ", count: column)
                return lines.enumerated().map { i, l in (i == 0 ? TextWidth.pad(term, to: column, right: false) : pad) + l }
            }
            let pad = String(repeating: " ", count: shape.indent + 4)
            return [term] + fill(meaning, width: width - pad.count).map { pad + $0 }
        }
        // `Usage: utq run …`: the usage goes on under itself.
        let hang = shape.indent == 0 && block[0].lowercased().hasPrefix("usage: ") ? 7 : shape.indent
        let all = block.flatMap { words(Substring($0)) }
        return fill(all, width: max(width - hang, 1), first: max(width - shape.indent, 1)).enumerated().map { i, l in
            String(repeating: " ", count: i == 0 ? shape.indent : hang) + l
        }
    }

    /// Words filled into lines of at most `width` columns (`first` for the first line); a
    /// longer word has a line of its own.
    static func fill(_ words: [Substring], width: Int, first: Int? = nil) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in words {
            let w = TextWidth.of(String(word))
            if used > 0 && used + 1 + w > (lines.isEmpty ? first ?? width : width) {
                lines.append(line)
                line = ""
                used = 0
            }
            if used > 0 { line += " "; used += 1 }
            line += word
            used += w
        }
        if used > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }
}
