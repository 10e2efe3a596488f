import Foundation

/// What the first bytes of a file say about how its text is written. utq reads UTF-8; a
/// UTF-16 file (with a byte-order mark, or recognised by its zero bytes) and a Latin-1 or
/// Windows file (bytes that are not UTF-8, and no UTF-8 beside them) are converted whole,
/// in memory: such files are exports from spreadsheets, not logs of millions of rows.
enum TextEncoding: Equatable {
    case utf8
    case utf16(String.Encoding)
    case latin1
    /// UTF-8 with some bytes that are not (counted in the bytes looked at): each reads as �.
    case brokenUTF8(Int)

    /// How many bytes the readers look at to decide.
    static let sniffSize = 65536

    static func sniff(_ head: [UInt8], isWholeFile: Bool) -> TextEncoding {
        if head.starts(with: [0xFF, 0xFE]) { return .utf16(.utf16LittleEndian) }
        if head.starts(with: [0xFE, 0xFF]) { return .utf16(.utf16BigEndian) }
        let sample = head.prefix(4096)
        if sample.count >= 4 {
            // No mark: ASCII text in UTF-16 has a zero in every other byte.
            let pairs = sample.count / 2
            let evens = stride(from: sample.startIndex, to: sample.endIndex - 1, by: 2).filter { sample[$0] == 0 }.count
            let odds = stride(from: sample.startIndex + 1, to: sample.endIndex, by: 2).filter { sample[$0] == 0 }.count
            if odds > pairs * 3 / 4 && evens == 0 { return .utf16(.utf16LittleEndian) }
            if evens > pairs * 3 / 4 && odds == 0 { return .utf16(.utf16BigEndian) }
        }
        let (valid, invalid) = utf8Sequences(head, isWholeFile: isWholeFile)
        if invalid == 0 { return .utf8 }
        return valid == 0 ? .latin1 : .brokenUTF8(invalid)
    }

    /// Multi-byte UTF-8 sequences that are well formed, and bytes that belong to none. A
    /// sequence cut by the end of the sample is neither.
    static func utf8Sequences(_ b: [UInt8], isWholeFile: Bool) -> (valid: Int, invalid: Int) {
        var valid = 0, invalid = 0
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let length = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0
            if length == 0 { invalid += 1; i += 1; continue }
            if i + length > n && !isWholeFile { break }
            var ok = i + length <= n
            if ok { for k in 1..<length where b[i + k] & 0xC0 != 0x80 { ok = false } }
            if ok && length == 3 && ((c == 0xE0 && b[i + 1] < 0xA0) || (c == 0xED && b[i + 1] >= 0xA0)) { ok = false }
            if ok && length == 4 && ((c == 0xF0 && b[i + 1] < 0x90) || (c == 0xF4 && b[i + 1] >= 0x90)) { ok = false }
            if ok { valid += 1; i += length } else { invalid += 1; i += 1 }
        }
        return (valid, invalid)
    }

    /// Whether the file must be converted before it is read.
    var converts: Bool {
        switch self {
        case .utf16, .latin1: return true
        default: return false
        }
    }

    /// The whole file as UTF-8 text, or a LoadError.
    func convert(path: String) throws -> [UInt8] {
        try convert(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
    }

    /// Bytes already in memory as UTF-8 text, or a LoadError naming `path`.
    func convert(bytes: [UInt8], path: String) throws -> [UInt8] {
        let data = Data(bytes)
        switch self {
        case .utf16(let encoding):
            var body = data
            if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) { body = body.dropFirst(2) }
            guard let text = String(data: body, encoding: encoding) else {
                throw LoadError(path: path, "looks like UTF-16 but does not decode as UTF-16")
            }
            return Array(text.utf8)
        case .latin1:
            // Windows-1252 is Latin-1 with letters where Latin-1 has control codes (€, ’, …);
            // the five bytes it leaves undefined fall back to Latin-1.
            let text = String(data: data, encoding: .windowsCP1252) ?? String(data: data, encoding: .isoLatin1) ?? ""
            return Array(text.utf8)
        default:
            return Array(data)
        }
    }

    /// The warning a load gives for this encoding, if any.
    var note: String? {
        switch self {
        case .utf8: return nil
        case .utf16: return "read as UTF-16 and converted to UTF-8"
        case .latin1: return "not UTF-8: read as Latin-1 (Windows-1252) and converted"
        case .brokenUTF8(let n):
            return "some bytes are not UTF-8 (\(n) in the first \(TextEncoding.sniffSize / 1024) KB); each shows as \u{FFFD}"
        }
    }
}
