import Foundation

/// Splits CSV bytes into records and fields: quoted fields with doubled quotes, embedded
/// newlines, and any of \n, \r\n or a lone \r as the end of a record.
struct CSVScanner {
    let delimiter: UInt8
    let quote: UInt8 = 0x22

    /// Fields of the last record: byte ranges into the buffer, and whether a field needs
    /// unquoting (it was quoted and had doubled quotes or text after its closing quote).
    private(set) var starts: [Int] = []
    private(set) var ends: [Int] = []
    private(set) var needsUnquote: [Bool] = []
    /// Whether a field was written in quotes (its spaces are then data, not padding).
    private(set) var quoted: [Bool] = []
    private(set) var fieldCount = 0
    /// Lines the last record spanned (more than one when a quoted field holds newlines).
    private(set) var linesSpanned = 1
    private(set) var malformedQuote = false
    /// How the last record ended, so a reader can notice files that mix line ends.
    private(set) var lineEnd = LineEnd.none
    private var scratch: [UInt8] = []

    enum LineEnd: String { case lf = "\\n", crlf = "\\r\\n", cr = "\\r", none }

    init(delimiter: UInt8) { self.delimiter = delimiter }

    enum ScanError: Error { case unterminatedQuote(offset: Int) }

    private mutating func addField(_ s: Int, _ e: Int, _ unquote: Bool, quoted q: Bool = false) {
        if fieldCount == starts.count {
            starts.append(s); ends.append(e); needsUnquote.append(unquote); quoted.append(q)
        } else {
            starts[fieldCount] = s; ends[fieldCount] = e; needsUnquote[fieldCount] = unquote; quoted[fieldCount] = q
        }
        fieldCount += 1
    }

    /// Scans one record starting at `from`. Returns the offset after it, or nil when the
    /// buffer ends inside the record and more input may follow.
    mutating func scanRecord(_ buf: UnsafeRawBufferPointer, from: Int, isFinal: Bool) throws -> Int? {
        fieldCount = 0
        linesSpanned = 1
        malformedQuote = false
        lineEnd = .none
        let n = buf.count
        let delim = delimiter
        var i = from
        while true {
            if i < n && buf[i] == quote {
                // Quoted field: find the closing quote, stepping over doubled ones.
                var j = i + 1
                var doubled = false
                var close = -1
                while true {
                    guard let p = memchr(buf.baseAddress! + j, Int32(quote), n - j) else { break }
                    let q = buf.baseAddress!.distance(to: UnsafeRawPointer(p))
                    if q + 1 < n && buf[q + 1] == quote { doubled = true; j = q + 2; continue }
                    if q + 1 == n && !isFinal { return nil }  // might be the first of a doubled pair
                    close = q
                    break
                }
                if close < 0 {
                    if !isFinal { return nil }
                    throw ScanError.unterminatedQuote(offset: i)
                }
                // Newlines inside the quotes.
                var k = i + 1
                while k < close {
                    guard let p = memchr(buf.baseAddress! + k, 0x0A, close - k) else { break }
                    linesSpanned += 1
                    k = buf.baseAddress!.distance(to: UnsafeRawPointer(p)) + 1
                }
                var end = close + 1
                if end < n, buf[end] != delim, buf[end] != 0x0A, buf[end] != 0x0D {
                    // Text after the closing quote: keep it, as spreadsheets do.
                    malformedQuote = true
                    while end < n, buf[end] != delim, buf[end] != 0x0A, buf[end] != 0x0D { end += 1 }
                    if end == n && !isFinal { return nil }
                    addField(i, end, true, quoted: true)
                } else if doubled {
                    addField(i, close + 1, true, quoted: true)
                } else {
                    addField(i + 1, close, false, quoted: true)
                }
                i = end
            } else {
                var j = i
                while j < n {
                    let c = buf[j]
                    if c == delim || c == 0x0A || c == 0x0D { break }
                    j += 1
                }
                if j == n && !isFinal { return nil }
                addField(i, j, false)
                i = j
            }
            if i >= n {
                return isFinal ? n : nil
            }
            let c = buf[i]
            if c == delim {
                i += 1
                if i == n {
                    if !isFinal { return nil }
                    addField(n, n, false)
                    return n
                }
                continue
            }
            if c == 0x0A { lineEnd = .lf; return i + 1 }
            // \r: a record end, alone or before \n.
            if i + 1 < n {
                lineEnd = buf[i + 1] == 0x0A ? .crlf : .cr
                return lineEnd == .crlf ? i + 2 : i + 1
            }
            lineEnd = .cr
            return isFinal ? i + 1 : nil
        }
    }

    /// The bytes of field `k`, unquoted when needed, passed to `body`.
    mutating func withField<R>(_ k: Int, in buf: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let s = starts[k], e = ends[k]
        if !needsUnquote[k] {
            return try body(UnsafeRawBufferPointer(rebasing: buf[s..<e]))
        }
        scratch.removeAll(keepingCapacity: true)
        var i = s
        var inQuotes = false
        while i < e {
            let c = buf[i]
            if c == quote {
                if inQuotes && i + 1 < e && buf[i + 1] == quote { scratch.append(quote); i += 2; continue }
                inQuotes.toggle()
                i += 1
                continue
            }
            scratch.append(c)
            i += 1
        }
        return try scratch.withUnsafeBytes { try body($0) }
    }

    /// A field as text, trimmed of surrounding spaces (for headers).
    mutating func fieldString(_ k: Int, in buf: UnsafeRawBufferPointer) -> String {
        withField(k, in: buf) { String(decoding: $0, as: UTF8.self) }
    }

    /// True when the record is a blank line.
    var isBlank: Bool { fieldCount == 1 && starts[0] == ends[0] }
}

/// Chooses the delimiter from the first lines: the candidate that splits them into the
/// same number of fields (more than one), preferring the one with most fields.
func detectDelimiter(_ sample: UnsafeRawBufferPointer, hint: UInt8? = nil) -> UInt8 {
    if let hint { return hint }
    let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
    var best: UInt8 = UInt8(ascii: ",")
    var bestScore = 0
    for d in candidates {
        var counts: [Int] = []
        var current = 1
        var inQuotes = false
        var i = 0
        var lines = 0
        while i < sample.count && lines < 30 {
            let c = sample[i]
            if c == 0x22 { inQuotes.toggle() }
            else if !inQuotes {
                if c == d { current += 1 }
                else if c == 0x0A || c == 0x0D {
                    if c == 0x0D && i + 1 < sample.count && sample[i + 1] == 0x0A { i += 1 }
                    counts.append(current); current = 1; lines += 1
                }
            }
            i += 1
        }
        if i >= sample.count && current > 1 { counts.append(current) }
        guard let first = counts.first, first > 1 else { continue }
        let consistent = counts.filter { $0 == first }.count
        // Consistency matters most; the field count breaks ties.
        let score = consistent * 100 + min(first, 99)
        if score > bestScore { bestScore = score; best = d }
    }
    return best
}
