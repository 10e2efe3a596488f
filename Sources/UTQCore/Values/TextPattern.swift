import Foundation

/// A regular expression for `~` and `extract`, whose every match is bounded. ICU runs it
/// (through NSRegularExpression) because ICU reports how far a match has got as it goes:
/// once per place in the text a match is tried from, and every few thousand steps of
/// backtracking. A pattern with a repeat inside a repeat, as (a+)+$, tries every way of
/// splitting a text it does not match, which doubles with each letter: past a budget of
/// reports the match stops with an error, and Ctrl-C stops it at the next report.
struct TextPattern: Sendable {
    let pattern: String
    private let regex: NSRegularExpression

    /// Reports a match may take besides two per place in the text it is tried from: under a
    /// second of backtracking (tens of millions of steps), where a pattern that does not run
    /// away takes a few thousand steps on a short text.
    static let budget = 4_000

    /// Compiles a pattern, in the syntax Swift's Regex reads (its messages say where a
    /// pattern goes wrong), for ICU to run.
    init(_ pattern: String, ignoringCase: Bool) throws {
        do { _ = try Regex(pattern) } catch {
            throw Diagnostic(RegexCheck.message(pattern, error))
        }
        do {
            regex = try NSRegularExpression(pattern: pattern, options: ignoringCase ? [.caseInsensitive] : [])
        } catch {
            // ICU says no more than that it refuses.
            throw Diagnostic("\"\(pattern)\" is not a regular expression ICU can run",
                             hint: "utq runs ICU's regular expressions (as Java's): braces that make no count such as {2,5} are written \\\\{ and \\\\} between quotes, a named group (?<name>…)")
        }
        self.pattern = pattern
    }

    func matches(_ text: String, cancel: CancellationFlag?) throws -> Bool {
        try firstMatch(in: text, cancel: cancel) != nil
    }

    /// The first match: each group's part of the text (0 the whole match; nil for a group
    /// that took no part), or nil when the pattern does not match.
    func firstMatch(in text: String, cancel: CancellationFlag?) throws -> [Range<String.Index>?]? {
        if cancel?.isCancelled == true { throw CancellationError() }
        let length = text.utf16.count
        let allowed = TextPattern.budget + 2 * length
        var reports = 0
        var found: NSTextCheckingResult? = nil
        var stopped: (any Error)? = nil
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: length)) { match, _, stop in
            if let match {
                found = match
                stop.pointee = true
                return
            }
            reports += 1
            if cancel?.isCancelled == true {
                stopped = CancellationError()
                stop.pointee = true
            } else if reports > allowed {
                stopped = tooLong(text)
                stop.pointee = true
            }
        }
        if let stopped { throw stopped }
        guard let found else { return nil }
        return (0..<found.numberOfRanges).map { Range(found.range(at: $0), in: text) }
    }

    private func tooLong(_ text: String) -> Diagnostic {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return Diagnostic("the pattern \"\(pattern)\" takes too long on \"\(shown)\"; simplify it",
                          hint: "a repeat inside a repeat, as (a+)+, tries every way of splitting a text it does not match: one repeat, a+, finds the same")
    }
}
