/// An error in a command or a script: what is wrong, where, and how to put it right.
/// Every failure the engine reports reaches the user as one of these.
public struct Diagnostic: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value tests can match; `.message` for the rest.
    public var kind: DiagnosticKind
    public var message: String
    /// Where in the command the problem is; the renderer puts a caret under it.
    public var span: SourceSpan?
    /// A suggestion shown after the message ("did you mean …" is part of the message).
    public var hint: String?
    /// The one-line usage of the verb involved.
    public var usage: String?
    /// The script or command line the span points into.
    public var source: SourceText?

    public init(_ message: String, at span: SourceSpan? = nil, hint: String? = nil, usage: String? = nil) {
        self.kind = .message
        self.message = message
        self.span = span
        self.hint = hint
        self.usage = usage
    }

    /// A diagnostic of a known kind, worded by `DiagnosticText`.
    public init(_ kind: DiagnosticKind, at span: SourceSpan? = nil, usage: String? = nil) {
        self.kind = kind
        self.message = DiagnosticText.message(kind)
        self.hint = DiagnosticText.hint(kind)
        self.span = span
        self.usage = usage
    }

    public var description: String { message }

    /// `lesson.utq:12:7` when the source and span are known.
    public var location: String? {
        guard let source, let span else { return nil }
        let (line, column) = source.location(of: span.start)
        return "\(source.name):\(line):\(column)"
    }
}

/// Suggestions for misspelt names.
public enum Suggest {
    /// The closest candidate within a small edit distance, case-insensitive.
    public static func closest(_ word: String, among candidates: [String]) -> String? {
        let w = word.lowercased()
        // Names are short: a word of hundreds of letters (pasted data) is near none of them,
        // and the edit distance of long texts is slow.
        guard w.count <= 200 else { return nil }
        // Score, then 0 for a word the typed one begins ("tou" is nearer "tour" than "top").
        var best: (String, Int, Int)? = nil
        for c in candidates {
            let cl = c.lowercased()
            if cl == w { return c }
            let limit = max(1, min(3, w.count / 3 + 1))
            let prefixMatch = cl.hasPrefix(w) && w.count >= 3
            // The distance is at least the difference of the lengths: skip what cannot be near.
            if !prefixMatch && Swift.abs(cl.count - w.count) > limit { continue }
            let d = distance(w, cl)
            let score = prefixMatch ? min(d, 1) : d
            let tie = prefixMatch ? 0 : 1
            if score <= limit, best == nil || (score, tie) < (best!.1, best!.2) { best = (c, score, tie) }
        }
        return best?.0
    }

    /// `— did you mean "legend"?` or empty.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let c = closest(word, among: candidates) else { return "" }
        return " — did you mean \"\(c)\"?"
    }

    /// Levenshtein distance with transpositions counted as one edit.
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var prev2 = [Int](repeating: 0, count: y.count + 1)
        var prev = Array(0...y.count)
        var cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            cur[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] {
                    cur[j] = min(cur[j], prev2[j - 2] + 1)
                }
            }
            prev2 = prev; prev = cur
        }
        return prev[y.count]
    }
}
