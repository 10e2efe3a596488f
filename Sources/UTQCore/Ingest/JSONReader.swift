import Foundation

/// A JSON syntax error at a byte offset (turned into line and column by the caller).
struct JSONSyntaxError: Error {
    let offset: Int
    let message: String
}

/// The buffer ended inside a value; more input may complete it.
struct JSONIncomplete: Error {}

/// A byte-level JSON reader over one buffer. It builds documents (`JSONValue`) for
/// small structured files, and hands strings and numbers to the record loader without
/// building anything per value.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var pos: Int
    /// When false, reaching the end of the buffer means "read more" rather than an error.
    let isFinal: Bool
    var scratch: [UInt8] = []
    static let maxDepth = 1000

    init(_ bytes: UnsafeRawBufferPointer, pos: Int = 0, isFinal: Bool = true) {
        self.bytes = bytes
        self.pos = pos
        self.isFinal = isFinal
    }

    // MARK: low level

    @inline(__always)
    mutating func skipWhitespace() {
        let n = bytes.count
        while pos < n {
            let c = bytes[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { pos += 1 } else { return }
        }
    }

    @inline(__always)
    func peek() -> UInt8? { pos < bytes.count ? bytes[pos] : nil }

    func fail(_ message: String, at offset: Int? = nil) -> Error {
        if (offset ?? pos) >= bytes.count && !isFinal { return JSONIncomplete() }
        return JSONSyntaxError(offset: offset ?? pos, message: message)
    }

    func describe(_ c: UInt8?) -> String {
        guard let c else { return "the end of the file" }
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return String(format: "byte 0x%02X", c)
    }

    mutating func expect(_ c: UInt8, _ what: String) throws {
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == c else {
            throw fail("expected \(what), found \(describe(peek()))")
        }
        pos += 1
    }

    /// Reads a string at `pos` (which must be a quote). Returns the bytes' range in the
    /// buffer when there were no escapes, else the unescaped bytes in `scratch` (range nil).
    mutating func readString() throws -> Range<Int>? {
        let start = pos
        pos += 1
        let n = bytes.count
        let base = bytes.baseAddress!
        var i = Self.plainRun(UnsafeRawPointer(base), from: pos, end: n)
        while i < n {
            let c = base.load(fromByteOffset: i, as: UInt8.self)
            if c == 0x22 { let r = pos..<i; pos = i + 1; return r }
            if c == 0x5C { break }
            if c < 0x20 && c != 0x09 {
                if c == 0x0A || c == 0x0D { throw fail("a string is not closed before the end of the line", at: start) }
            }
            i += 1
        }
        if i >= n { throw unclosed(start) }
        // Escapes: copy into scratch.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[pos..<i]))
        pos = i
        while pos < n {
            let c = bytes[pos]
            if c == 0x22 { pos += 1; return nil }
            if c == 0x5C {
                guard pos + 1 < n else { throw unclosed(start) }
                let e = bytes[pos + 1]
                pos += 2
                switch e {
                case 0x22: scratch.append(0x22)
                case 0x5C: scratch.append(0x5C)
                case 0x2F: scratch.append(0x2F)
                case 0x62: scratch.append(0x08)
                case 0x66: scratch.append(0x0C)
                case 0x6E: scratch.append(0x0A)
                case 0x72: scratch.append(0x0D)
                case 0x74: scratch.append(0x09)
                case 0x75:
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        // A high surrogate should be followed by \u and a low one.
                        if pos + 1 < n, bytes[pos] == 0x5C, bytes[pos + 1] == 0x75 {
                            let save = pos
                            pos += 2
                            let low = try hex4()
                            if low >= 0xDC00 && low < 0xE000 {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                pos = save
                                scalar = 0xFFFD
                            }
                        } else {
                            if pos + 1 >= n && !isFinal { throw JSONIncomplete() }
                            scalar = 0xFFFD
                        }
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        scalar = 0xFFFD
                    }
                    appendUTF8(scalar)
                default:
                    throw fail("unknown escape \\\(describe(e)) in a string", at: pos - 2)
                }
            } else {
                if c == 0x0A || c == 0x0D { throw fail("a string is not closed before the end of the line", at: start) }
                scratch.append(c)
                pos += 1
            }
        }
        throw unclosed(start)
    }

    /// Where the plain run of a string's text starting at `from` may end: past every whole
    /// eight-byte word that holds no quote, backslash or control byte (a byte of `w ^ pattern`
    /// is zero where `w` holds the pattern's byte, and `(x - 0x01…) & ~x & 0x80…` marks zero
    /// bytes), so a byte loop need only look from there.
    @inline(__always)
    static func plainRun(_ p: UnsafeRawPointer, from: Int, end n: Int) -> Int {
        var i = from
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let q = w ^ 0x2222_2222_2222_2222, s = w ^ 0x5C5C_5C5C_5C5C_5C5C
            // Bytes below 0x20 (and, harmlessly, some others) are marked too.
            let marks = ((q &- ones) & ~q | (s &- ones) & ~s | (w &- 0x2020_2020_2020_2020) & ~w) & highs
            if marks != 0 { return i }
            i += 8
        }
        return i
    }

    /// The buffer ended inside a string: an error at the end of the file, else read more.
    private func unclosed(_ start: Int) -> Error {
        isFinal ? JSONSyntaxError(offset: start, message: "a string is never closed") : JSONIncomplete()
    }

    private mutating func hex4() throws -> UInt32 {
        guard pos + 4 <= bytes.count else { throw isFinal ? fail("\\u needs four hex digits") : JSONIncomplete() }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = bytes[pos + k]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("\\u needs four hex digits", at: pos + k)
            }
            v = v << 4 | d
        }
        pos += 4
        return v
    }

    private mutating func appendUTF8(_ v: UInt32) {
        let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
        for b in String(scalar).utf8 { scratch.append(b) }
    }

    /// Reads a number at `pos`. Returns its text range and value.
    mutating func readNumber() throws -> (range: Range<Int>, int: Int64?, double: Double) {
        let start = pos
        let n = bytes.count
        // -Infinity, which the literals accept too: it starts like a number.
        if pos + 1 < n && bytes[pos] == 0x2D && bytes[pos + 1] == 0x49 {
            let word = Array("-Infinity".utf8)
            if pos + word.count <= n && zip(word, bytes[pos..<(pos + word.count)]).allSatisfy({ $0 == $1 }) {
                pos += word.count
                return (start..<pos, nil, -.infinity)
            }
            if !isFinal && zip(word, bytes[pos..<n]).allSatisfy({ $0 == $1 }) { throw JSONIncomplete() }
        }
        if let quick = quickNumber() { return quick }
        var i = pos
        while i < n {
            let c = bytes[i]
            if (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45 { i += 1 } else { break }
        }
        if i == n && !isFinal { throw JSONIncomplete() }
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
        pos = i
        if let v = NumberParser.int(text) { return (start..<i, v, Double(v)) }
        // JSON allows a leading "0" only alone; NumberParser refuses "007", so accept "0.5" forms.
        if let d = NumberParser.double(text) { return (start..<i, nil, d) }
        if text.count > 1, text[0] == 0x30 || (text[0] == 0x2D && text.count > 2 && text[1] == 0x30),
           let d = Double(String(decoding: text, as: UTF8.self)) {
            return (start..<i, nil, d)
        }
        throw fail("this is not a number", at: start)
    }

    /// The numbers most files hold, in one pass (`plainNumber`): an integer of up to 18
    /// digits, or one with a fraction and at most 15 digits in all. Anything else — exponents,
    /// leading zeros, a number at the end of a chunk — goes to the general reader (nil).
    @inline(__always)
    private mutating func quickNumber() -> (range: Range<Int>, int: Int64?, double: Double)? {
        guard let number = Self.plainNumber(UnsafeRawPointer(bytes.baseAddress!), from: pos, end: bytes.count) else { return nil }
        let next = bytes[number.end]
        if next == 0x2B || next == 0x2D { return nil }
        let range = pos..<number.end
        if let v = number.int { pos = number.end; return (range, v, Double(v)) }
        if let d = number.double { pos = number.end; return (range, nil, d) }
        return nil
    }

    private static let powers: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// A number written `-?(0|[1-9][0-9]*)(.[0-9]+)?` at `from`, followed by a byte before
    /// `n`: where it ends, and its value when that is exact — a whole number of up to 18 digits
    /// (`int`), or a fraction of up to 15 digits in all (`double`: one division by an exact
    /// power of ten rounds correctly, as NumberParser.double reads it). nil for other
    /// spellings (exponents, leading zeros) and for a number the end of the buffer may cut.
    @inline(__always)
    static func plainNumber(_ p: UnsafeRawPointer, from: Int, end n: Int) -> (end: Int, int: Int64?, double: Double?)? {
        var i = from
        let negative = p.load(fromByteOffset: i, as: UInt8.self) == 0x2D
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        // Digits from i on, into the mantissa; how many.
        func digits() -> Int {
            let start = i
            while i < n {
                let d = p.load(fromByteOffset: i, as: UInt8.self) &- 0x30
                if d > 9 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
            }
            return i - start
        }
        let first = i
        let whole = digits()
        guard whole > 0, i < n, whole == 1 || p.load(fromByteOffset: first, as: UInt8.self) != 0x30 else { return nil }
        var c = p.load(fromByteOffset: i, as: UInt8.self)
        var fraction = 0
        if c == 0x2E {
            i += 1
            fraction = digits()
            guard fraction > 0, i < n else { return nil }
            c = p.load(fromByteOffset: i, as: UInt8.self)
        }
        if c == 0x65 || c == 0x45 || c == 0x2E { return nil }
        if fraction == 0 {
            return (i, whole <= 18 ? (negative ? -Int64(mantissa) : Int64(mantissa)) : nil, nil)
        }
        guard whole + fraction <= 15 else { return (i, nil, nil) }
        // Below 10^15 the mantissa is a positive Int64, whose conversion is one instruction.
        let v = Double(Int64(bitPattern: mantissa)) / powers[fraction]
        return (i, nil, negative ? -v : v)
    }

    /// Reads `true`, `false` or `null`.
    mutating func readLiteral() throws -> JSONValue {
        // The three words JSON has, compared in place: most files hold a null or a boolean
        // in every record.
        let n = bytes.count
        if pos + 5 <= n || (isFinal && pos + 4 <= n) {
            let w = UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(fromByteOffset: pos, as: UInt32.self)
            if w == 0x6C6C_756E { pos += 4; return .null }                   // "null"
            if w == 0x6575_7274 { pos += 4; return .bool(true) }             // "true"
            if w == 0x736C_6166, pos + 5 <= n, bytes[pos + 4] == 0x65 { pos += 5; return .bool(false) }  // "false"
        }
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] {
            let w = Array(word.utf8)
            if pos + w.count <= bytes.count {
                if zip(w, bytes[pos..<(pos + w.count)]).allSatisfy({ $0 == $1 }) {
                    pos += w.count
                    return value
                }
            } else if !isFinal, zip(w, bytes[pos..<bytes.count]).allSatisfy({ $0 == $1 }) {
                throw JSONIncomplete()
            }
        }
        // Spellings JSON does not allow but some tools write.
        for (word, value) in [("NaN", JSONValue.number(.nan, isInteger: false)), ("Infinity", .number(.infinity, isInteger: false)), ("-Infinity", .number(-.infinity, isInteger: false))] {
            let w = Array(word.utf8)
            if pos + w.count <= bytes.count, zip(w, bytes[pos..<(pos + w.count)]).allSatisfy({ $0 == $1 }) {
                pos += w.count
                return value
            }
        }
        throw fail("expected a value (a string, number, object, array, true, false or null), found \(describe(peek()))")
    }

    func string(_ range: Range<Int>?) -> String {
        if let range { return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return String(decoding: scratch, as: UTF8.self)
    }

    // MARK: documents

    mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        let v = try parseValue(depth: 0)
        skipWhitespace()
        if pos < bytes.count {
            throw fail("unexpected \(describe(peek())) after the end of the JSON value")
        }
        return v
    }

    mutating func parseValue(depth: Int) throws -> JSONValue {
        skipWhitespace()
        guard let c = peek() else { throw fail("expected a value, found the end of the file") }
        switch c {
        case 0x7B: // {
            guard depth < Self.maxDepth else { throw fail("objects and arrays are nested more than \(Self.maxDepth) deep") }
            pos += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if peek() == 0x7D { pos += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard peek() == 0x22 else { throw fail("expected a member name in quotes, found \(describe(peek()))") }
                // Read first: string(_:) takes a copy of self, scratch included, before its argument runs.
                let keyRange = try readString()
                let key = string(keyRange)
                try expect(0x3A, "':' after the member name \"\(key)\"")
                let value = try parseValue(depth: depth + 1)
                members.append((key, value))
                skipWhitespace()
                guard let d = peek() else { throw fail("expected ',' or '}', found the end of the file") }
                pos += 1
                if d == 0x2C { continue }
                if d == 0x7D { return .object(members) }
                pos -= 1
                throw fail("expected ',' or '}' after the member \"\(key)\", found \(describe(d))")
            }
        case 0x5B: // [
            guard depth < Self.maxDepth else { throw fail("objects and arrays are nested more than \(Self.maxDepth) deep") }
            pos += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if peek() == 0x5D { pos += 1; return .array(items) }
            while true {
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard let d = peek() else { throw fail("expected ',' or ']', found the end of the file") }
                pos += 1
                if d == 0x2C { continue }
                if d == 0x5D { return .array(items) }
                pos -= 1
                throw fail("expected ',' or ']' in an array, found \(describe(d))")
            }
        case 0x22:
            let range = try readString()
            return .string(string(range))
        case 0x2D, 0x30...0x39:
            let n = try readNumber()
            if let i = n.int { return .integer(i) }
            return .number(n.double, isInteger: false)
        default:
            return try readLiteral()
        }
    }

    /// Skips one value without building it; used to find where nested arrays end.
    mutating func skipValue(depth: Int) throws {
        _ = try parseValue(depth: depth)
    }
}

/// Parses a whole file as one JSON document, with errors at line and column.
public func parseJSONDocument(path: String) throws -> JSONValue {
    let stream = try ByteStream(path: path)
    let bytes = try stream.readAll()
    return try parseJSONDocument(bytes: bytes, path: path)
}

public func parseJSONDocument(bytes: [UInt8], path: String) throws -> JSONValue {
    try bytes.withUnsafeBytes { b in
        var reader = JSONReader(b)
        do {
            return try reader.parseDocument()
        } catch let e as JSONSyntaxError {
            let (line, column) = lineAndColumn(of: e.offset, in: b)
            throw LoadError(path: path, line: line, column: column, "invalid JSON: " + e.message)
        }
    }
}
