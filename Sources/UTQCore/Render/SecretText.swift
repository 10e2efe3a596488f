import Foundation

/// Secrets written in a line (a database password above all), left out wherever the line is
/// shown or written again: messages, the line quoted under an error, --echo, notebooks and
/// recordings, the kernel's replies, the history and the history file. A secret becomes `…`.
///
/// A secret is the value of a connection keyword libpq hides itself (PQconndefaults marks
/// them "*"): `password`, `sslpassword` (the client key's passphrase) and PostgreSQL 18's
/// `oauth_client_secret`, in each form libpq reads them: a URI's `user:secret@`, its query
/// `?password=secret` (the keyword percent-encoded too, as libpq decodes it), and a
/// keyword/value string's `password=secret` or `password='a secret'`.
public enum SecretText {
    public static let mask = "…"

    static let keywords: Set<String> = ["password", "sslpassword", "oauth_client_secret"]

    /// The text with each secret written `…`; `values` (the secrets of the line a message is
    /// about: libpq quotes a value it cannot read as it was written) go wherever they stand.
    public static func masked(_ text: String, also values: [String] = []) -> String {
        let found = ranges(in: text)
        var bytes = Array(text.utf8)
        for r in found.reversed() { bytes.replaceSubrange(r, with: Array(mask.utf8)) }
        var out = found.isEmpty ? text : String(decoding: bytes, as: UTF8.self)
        // A secret of one or two characters would take those letters out of every word of
        // the message, and a message never quotes one that short by itself.
        for value in Set(values).filter({ $0.count >= 3 }).sorted(by: { $0.count > $1.count }) {
            out = out.replacingOccurrences(of: value, with: mask)
        }
        return out
    }

    /// The secrets of a line as it holds them and as libpq reads them (percent-decoded,
    /// unquoted), to take out of messages about the line.
    public static func values(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var out: [String] = []
        for r in ranges(in: text) {
            let raw = String(decoding: bytes[r], as: UTF8.self)
            out.append(raw)
            if let decoded = raw.removingPercentEncoding { out.append(decoded) }
            if raw.hasPrefix("'") {
                let inner = raw.dropFirst().hasSuffix("'") ? raw.dropFirst().dropLast() : raw.dropFirst()
                out.append(String(inner))
                out.append(inner.replacingOccurrences(of: #"\\(.)"#, with: "$1", options: .regularExpression))
            }
        }
        return out
    }

    /// Where a line's secrets are, as UTF-8 offsets, in order and apart.
    public static func ranges(in text: String) -> [Range<Int>] {
        // Each form has an = or an @: most lines have neither.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }) else { return [] }
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        var found: [Range<Int>] = []
        func add(_ range: NSRange) {
            guard range.location != NSNotFound, range.length > 0, let r = Range(range, in: text) else { return }
            // Masked already (a message that quotes a masked URI, masked again when shown):
            // the mask and what follows it (": reason") stay.
            if text[r].hasPrefix(mask) { return }
            let start = text.utf8.distance(from: text.startIndex, to: r.lowerBound)
            found.append(start..<(start + text.utf8.distance(from: r.lowerBound, to: r.upperBound)))
        }
        for m in Forms.userInfo.matches(in: text, range: whole) { add(m.range(at: 1)) }
        for form in [Forms.query, Forms.keyword] {
            for m in form.matches(in: text, range: whole) {
                let key = ns.substring(with: m.range(at: 1))
                if keywords.contains((key.removingPercentEncoding ?? key).lowercased()) { add(m.range(at: 2)) }
            }
        }
        found.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for r in found {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// The patterns of the three forms; each is linear in the line.
    private enum Forms {
        /// `scheme://user:secret@`: libpq's user information ends at the first @ or /.
        static let userInfo = try! NSRegularExpression(pattern: #"://[^/\s:@]*:([^@/\s]*)@"#)
        /// `?keyword=secret` or `&keyword=secret` in a URI's query.
        static let query = try! NSRegularExpression(pattern: #"[?&]([^=&\s"'#]+)=([^&\s"]*)"#)
        /// `keyword=secret` or `keyword = 'a secret'` in a keyword/value string, which starts
        /// the text or follows a space or the quote it is written in.
        static let keyword = try! NSRegularExpression(
            pattern: #"(?<![^\s"'])([A-Za-z_]+)[ \t]*=[ \t]*('(?:[^'\\\n]|\\.)*'?|(?:[^\s"'\\]|\\.)+)"#)
    }
}

/// A line with its secrets masked, and where each of its offsets went, so a caret drawn
/// under the masked line stands under what it pointed at.
struct MaskedLine {
    let text: String
    private let secrets: [Range<Int>]

    init(_ line: String) {
        secrets = SecretText.ranges(in: line)
        text = SecretText.masked(line)
    }

    /// Where a UTF-8 offset of the line is in the masked line; an offset inside a secret goes
    /// to the start of its mask, or its end with `end`.
    func offset(_ o: Int, end: Bool = false) -> Int {
        let maskLength = SecretText.mask.utf8.count
        var shift = 0
        for r in secrets {
            if o <= r.lowerBound { break }
            if o < r.upperBound { return r.lowerBound - shift + (end ? maskLength : 0) }
            shift += r.count - maskLength
        }
        return o - shift
    }
}

extension Diagnostic {
    /// The diagnostic with the given secrets (those of the command it is about) left out of
    /// its words; the renderer masks the line it quotes.
    func withoutSecrets(_ values: [String]) -> Diagnostic {
        var d = self
        d.message = SecretText.masked(message, also: values)
        d.hint = hint.map { SecretText.masked($0, also: values) }
        return d
    }
}

extension Output {
    /// A note or warning with the given secrets left out; answers (tables, charts, text)
    /// are the data's own.
    func withoutSecrets(_ values: [String]) -> Output {
        switch self {
        case .info(let text): return .info(SecretText.masked(text, also: values))
        case .warning(let text): return .warning(SecretText.masked(text, also: values))
        default: return self
        }
    }
}
