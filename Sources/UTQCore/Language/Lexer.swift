/// Turns command text into tokens. It never fails: characters it does not know become
/// `.unknown` tokens, and an unclosed string is reported as a diagnostic.
public struct Lexer {
    let source: SourceText
    let bytes: [UInt8]
    var pos: Int
    let end: Int

    public init(_ source: SourceText, range: Range<Int>? = nil) {
        self.source = source
        self.bytes = source.bytes
        self.pos = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? source.bytes.count
    }

    public static func tokenize(_ source: SourceText) throws -> [Token] {
        var lexer = Lexer(source)
        return try lexer.all()
    }

    public mutating func all() throws -> [Token] {
        var out: [Token] = []
        while true {
            let t = try next()
            out.append(t)
            if case .end = t.kind { return out }
        }
    }

    static let durationUnits: [String: Int64] = [
        "ms": 1_000, "s": 1_000_000, "sec": 1_000_000, "m": 60_000_000, "min": 60_000_000,
        "h": 3_600_000_000, "d": 86_400_000_000, "w": 604_800_000_000,
    ]

    /// `7h30m`: whole numbers each followed by a unit, the units from larger to smaller.
    static func compoundDuration(_ text: String) -> Int64? {
        var total: Int64 = 0, digits = "", unit = "", last = Int64.max, parts = 0
        func close() -> Bool {
            guard let n = Int64(digits), let size = durationUnits[unit.lowercased()], size < last,
                  let (product, o1) = Optional(n.multipliedReportingOverflow(by: size)), !o1,
                  let (sum, o2) = Optional(total.addingReportingOverflow(product)), !o2 else { return false }
            total = sum; last = size; digits = ""; unit = ""; parts += 1
            return true
        }
        for c in text {
            if c.isASCII, c.isNumber {
                if !unit.isEmpty { guard close() else { return nil } }
                digits.append(c)
            } else {
                guard !digits.isEmpty else { return nil }
                unit.append(c)
            }
        }
        guard !digits.isEmpty, !unit.isEmpty, close(), parts >= 2 else { return nil }
        return total
    }

    @inline(__always) func peek(_ k: Int = 0) -> UInt8? { pos + k < end ? bytes[pos + k] : nil }

    static func isIdentStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c >= 0x80
    }
    static func isIdentChar(_ c: UInt8) -> Bool { isIdentStart(c) || (c >= 0x30 && c <= 0x39) }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    public mutating func next() throws -> Token {
        var sawSpace = false
        // Spaces, tabs and comments.
        while let c = peek() {
            if c == 0x20 || c == 0x09 || c == 0x0D { pos += 1; sawSpace = true; continue }
            if c == 0x23 { // '#' comment to the end of the line
                while let d = peek(), d != 0x0A { pos += 1 }
                sawSpace = true
                continue
            }
            if c == 0x5C, peek(1) == 0x0A { pos += 2; sawSpace = true; continue }  // backslash-newline joins lines
            break
        }
        let start = pos
        guard let c = peek() else { return Token(.end, SourceSpan(pos, pos), spaceBefore: sawSpace) }
        func token(_ kind: Token.Kind) -> Token { Token(kind, SourceSpan(start, pos), spaceBefore: sawSpace) }

        if c == 0x0A { pos += 1; return token(.newline) }
        if c == 0x3B { pos += 1; return token(.semicolon) }
        if c == 0x22 || c == 0x27 { return token(.string(try string(quote: c))) }
        if c == 0x60 { // `quoted identifier`
            pos += 1
            let s = pos
            while let d = peek(), d != 0x60, d != 0x0A { pos += 1 }
            guard peek() == 0x60 else {
                throw Diagnostic("a name in backticks is not closed", at: SourceSpan(start, pos), hint: "close it with another `")
            }
            let name = String(decoding: bytes[s..<pos], as: UTF8.self)
            pos += 1
            return token(.identifier(name, quoted: true))
        }
        if Lexer.isDigit(c) || (c == 0x2E && peek(1).map(Lexer.isDigit) == true) {
            return token(try number())
        }
        if c == 0x24 { // $n or $name
            pos += 1
            var n = 0
            var digits = 0
            // Every digit belongs to the reference; one past any count of results saturates.
            while let d = peek(), Lexer.isDigit(d) {
                let (m, o1) = n.multipliedReportingOverflow(by: 10)
                let (r, o2) = m.addingReportingOverflow(Int(d - 0x30))
                n = o1 || o2 ? Int.max : r
                pos += 1; digits += 1
            }
            if digits > 0 { return token(.resultRef(n)) }
            return token(.unknown("$"))
        }
        if Lexer.isIdentStart(c) {
            return token(.identifier(identifier(), quoted: false))
        }
        // `?` is a word: help's other name in the registry.
        if c == 0x3F { pos += 1; return token(.identifier("?", quoted: false)) }
        // Symbols, longest first.
        let two = pos + 1 < end ? String(decoding: bytes[pos..<(pos + 2)], as: UTF8.self) : ""
        for s in ["==", "!=", "<>", "<=", ">="] where two == s {
            pos += 2
            return token(.symbol(Token.Symbol(rawValue: s)!))
        }
        if c < 0x80, let sym = Token.Symbol(rawValue: String(UnicodeScalar(c))) {
            pos += 1
            return token(.symbol(sym))
        }
        // Anything else: one character.
        let scalarLength = c < 0x80 ? 1 : (c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2)
        let text = String(decoding: bytes[pos..<min(end, pos + scalarLength)], as: UTF8.self)
        pos = min(end, pos + scalarLength)
        return token(.unknown(text.first ?? "?"))
    }

    mutating func identifier() -> String {
        let s = pos
        while let c = peek(), Lexer.isIdentChar(c) { pos += 1 }
        // Dotted names: market.legends, position.x
        while peek() == 0x2E, let n = peek(1), Lexer.isIdentStart(n) {
            pos += 1
            while let c = peek(), Lexer.isIdentChar(c) { pos += 1 }
        }
        return String(decoding: bytes[s..<pos], as: UTF8.self)
    }

    mutating func number() throws -> Token.Kind {
        let s = pos
        while let c = peek(), Lexer.isDigit(c) { pos += 1 }
        var isInteger = true
        if peek() == 0x2E, let n = peek(1), Lexer.isDigit(n) {
            isInteger = false
            pos += 1
            while let c = peek(), Lexer.isDigit(c) { pos += 1 }
        }
        if let e = peek(), e | 0x20 == 0x65 {
            var k = 1
            if let sign = peek(1), sign == 0x2B || sign == 0x2D { k = 2 }
            if let d = peek(k), Lexer.isDigit(d) {
                isInteger = false
                pos += k
                while let c = peek(), Lexer.isDigit(c) { pos += 1 }
            }
        }
        let text = String(decoding: bytes[s..<pos], as: UTF8.self)
        let value = Double(text) ?? 0
        // A unit right after the digits makes a duration: 15m, 1h, 30s.
        if let c = peek(), Lexer.isIdentStart(c) {
            var k = pos
            while k < end, Lexer.isIdentChar(bytes[k]) { k += 1 }
            let unit = String(decoding: bytes[pos..<k], as: UTF8.self).lowercased()
            if Lexer.durationUnits[unit] == nil, isInteger, let micros = Lexer.compoundDuration(String(decoding: bytes[s..<k], as: UTF8.self)) {
                // 7h30m, 1d12h, 2m30s: parts from the largest unit down, as people write them.
                pos = k
                return .duration(micros)
            }
            if let micros = Lexer.durationUnits[unit] {
                let span = SourceSpan(s, k)
                pos = k
                // A span past ±292,000 years has no microsecond count: say so rather than trap.
                let total = (value * Double(micros)).rounded()
                guard total.magnitude < 9.2e18 else {
                    _ = span
                    return .tooLong(String(decoding: bytes[s..<k], as: UTF8.self))
                }
                return .duration(Int64(total))
            }
        }
        // Whole numbers keep every digit: 9007199254740993 is not 9007199254740992.
        if isInteger, let exact = UInt64(text) { return .integer(exact) }
        return .number(value)
    }

    mutating func string(quote: UInt8) throws -> String {
        let start = pos
        pos += 1
        var out: [UInt8] = []
        while let c = peek() {
            if c == quote {
                // A doubled quote inside is one quote, as in SQL and CSV.
                if peek(1) == quote { out.append(quote); pos += 2; continue }
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c == 0x0A { break }
            if c == 0x5C, let n = peek(1) {
                pos += 2
                switch n {
                case 0x6E: out.append(0x0A)
                case 0x74: out.append(0x09)
                case 0x72: out.append(0x0D)
                default: out.append(n)
                }
                continue
            }
            out.append(c)
            pos += 1
        }
        throw Diagnostic("this text is not closed", at: SourceSpan(start, pos),
                         hint: "end it with \(quote == 0x22 ? "\"" : "'") on the same line")
    }
}
