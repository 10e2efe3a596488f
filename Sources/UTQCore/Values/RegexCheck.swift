/// Words for a regular expression that does not compile: what is wrong and at which
/// character, found by compiling ever longer beginnings of it (Swift's errors say what,
/// not where).
enum RegexCheck {
    static func message(_ pattern: String, _ error: Error) -> String {
        "\"\(pattern)\" is not a valid regular expression: \(error)" + position(pattern).map { " (at character \($0))" }.joined()
    }

    /// The character at which the pattern goes wrong: the first whose beginning fails for a
    /// reason more text could not mend; an unclosed bracket is placed at its opening.
    static func position(_ pattern: String) -> [Int] {
        let chars = Array(pattern)
        guard chars.count <= 512 else { return [] }
        for end in 1...max(1, chars.count) {
            do { _ = try Regex(String(chars.prefix(end))) } catch {
                // The parser's errors are words only, with no kind to ask; those more text
                // could mend say what they expected.
                if !"\(error)".hasPrefix("expected") { return [end] }
            }
        }
        // Only missing closers: the last opener left open.
        var open: [Int] = []
        var escaped = false
        for (i, c) in chars.enumerated() {
            if escaped { escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case "(", "[", "{": open.append(i + 1)
            case ")", "]", "}": _ = open.popLast()
            default: break
            }
        }
        return open.last.map { [$0] } ?? [chars.count]
    }
}
