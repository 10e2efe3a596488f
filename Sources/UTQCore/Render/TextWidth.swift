/// How many terminal cells text takes, and making data safe to print.
public enum TextWidth {
    /// Cells a scalar takes: 0 for combining marks and zero-width characters, 2 for wide
    /// East Asian characters and most emoji, 1 otherwise.
    public static func cells(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v == 0 { return 0 }
        if v < 0x300 { return 1 }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    public static func of(_ s: String) -> Int {
        var n = 0
        var plain = true
        for u in s.unicodeScalars {
            if u.value >= 0x200D { plain = false; break }
            n += cells(u)
        }
        if plain { return n }
        // Emoji sequences (👩‍👩‍👧, ❤️, flags) are one character on screen, two cells wide,
        // however many scalars they join.
        n = 0
        for ch in s { n += cells(ch) }
        return n
    }

    /// Cells one character (a grapheme cluster) takes.
    public static func cells(_ ch: Character) -> Int {
        let scalars = ch.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1 {
            if scalars.contains(where: { $0.value == 0x200D || $0.value == 0xFE0F }) || first.properties.isEmojiPresentation { return 2 }
            // Regional indicators pair into a flag.
            if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        }
        if first.properties.isEmojiPresentation { return 2 }
        return scalars.reduce(0) { $0 + cells($1) }
    }

    /// Text cut to at most `width` cells, ending in … when cut.
    public static func truncate(_ s: String, to width: Int) -> String {
        if of(s) <= width { return s }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var out = ""
        var used = 0
        for ch in s {
            let w = of(String(ch))
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    public static func pad(_ s: String, to width: Int, right: Bool) -> String {
        let w = of(s)
        if w >= width { return s }
        let fill = String(repeating: " ", count: width - w)
        return right ? fill + s : s + fill
    }

    /// Text of several lines (a message, a note) made safe line by line: the line breaks stay,
    /// every other control character is shown escaped.
    /// With `keepingTabs`, tabs stay too (TSV written to a terminal).
    public static func printableLines(_ s: String, keepingTabs: Bool = false) -> String {
        func line(_ l: Substring) -> String {
            guard keepingTabs, l.contains("\t") else { return printable(String(l)) }
            return l.split(separator: "\t", omittingEmptySubsequences: false).map { printable(String($0)) }.joined(separator: "\t")
        }
        guard s.contains("\n") || keepingTabs else { return printable(s) }
        return s.split(separator: "\n", omittingEmptySubsequences: false).map(line).joined(separator: "\n")
    }

    /// Invisible characters that change how a terminal lays text out: line and paragraph
    /// separators, and the controls of text direction (U+202E turns the rest of a line
    /// around, so a file name could hide its real ending).
    @inline(__always)
    static func isHidden(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x2028, 0x2029, 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Data shown in a terminal must not carry control characters: a cell holding an
    /// escape sequence would otherwise recolour or move the user's terminal.
    public static func printable(_ s: String) -> String {
        var needs = false
        for u in s.unicodeScalars where u.value < 0x20 || u.value == 0x7F || (u.value >= 0x80 && u.value < 0xA0) || isHidden(u) {
            needs = true
            break
        }
        if !needs { return s }
        var out = ""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F, 0x80..<0xA0:
                out += "\\u{" + String(u.value, radix: 16) + "}"
            case _ where isHidden(u):
                out += "\\u{" + String(u.value, radix: 16) + "}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
