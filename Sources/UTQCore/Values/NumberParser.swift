import Foundation

/// Numbers from bytes, as CSV and JSON cells hold them. Exact: the fast path is taken only
/// where it is correctly rounded (Clinger's condition), everything else goes to strtod.
public enum NumberParser {
    /// An integer: optional sign, digits, nothing else. Leading zeros ("007") are not
    /// numbers here, since they are codes or zip numbers that must keep their zeros.
    @inline(__always)
    /// NaN, Infinity, -Infinity (or inf), as utq and other tools write them: numbers in a
    /// column of numbers (never enough alone to make a column numeric: Nan is also a name).
    public static func special(_ b: UnsafeRawBufferPointer) -> Double? {
        guard b.count >= 3, b.count <= 9 else { return nil }
        var word = String(decoding: b, as: UTF8.self).lowercased()
        var sign = 1.0
        if word.hasPrefix("-") { sign = -1; word.removeFirst() } else if word.hasPrefix("+") { word.removeFirst() }
        switch word {
        case "nan": return sign == 1 ? .nan : nil
        case "inf", "infinity": return sign * .infinity
        default: return nil
        }
    }

    /// Digits only, with an optional sign: a whole number as written, whatever its size.
    public static func isWholeNumberText(_ b: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        if b.count > 0 && (b[0] == UInt8(ascii: "-") || b[0] == UInt8(ascii: "+")) { i = 1 }
        guard i < b.count else { return false }
        while i < b.count { if b[i] &- 48 > 9 { return false }; i += 1 }
        return true
    }

    public static func int(_ b: UnsafeRawBufferPointer) -> Int64? {
        let n = b.count
        if n == 0 { return nil }
        var i = 0
        var negative = false
        if b[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if b[0] == UInt8(ascii: "+") { i = 1 }
        if i == n || n - i > 19 { return nil }
        if b[i] == UInt8(ascii: "0") && n - i > 1 { return nil }
        var v: UInt64 = 0
        while i < n {
            let d = UInt64(b[i]) &- 48
            if d > 9 { return nil }
            v = v &* 10 &+ d
            i += 1
        }
        if negative {
            if v > UInt64(Int64.max) + 1 { return nil }
            return v == UInt64(Int64.max) + 1 ? Int64.min : -Int64(v)
        }
        if v > UInt64(Int64.max) { return nil }
        // 19 digits can overflow UInt64 silently; check with a slower path then.
        if n >= 19 { return Int64(String(decoding: b, as: UTF8.self)) }
        return Int64(v)
    }

    private static let powers: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                           1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// A decimal number: `-12`, `3.25`, `.5`, `1e-3`, `6.02E23`. With `decimalComma`,
    /// `3,25` is read as 3.25 (European spreadsheets), and `3.25` still is too (semicolon
    /// files such as Behaviour Mapper's export write a point). Leading zeros before digits are refused
    /// as for integers ("007"), but "0.5" is a number.
    @inline(__always)
    public static func double(_ b: UnsafeRawBufferPointer, decimalComma: Bool = false) -> Double? {
        let n = b.count
        if n == 0 { return nil }
        var i = 0
        var negative = false
        if b[0] == UInt8(ascii: "-") { negative = true; i = 1 } else if b[0] == UInt8(ascii: "+") { i = 1 }
        // Whole part, then an optional point and fraction; digits go into one mantissa.
        var mantissa: UInt64 = 0
        let firstDigit = i
        while i < n {
            let d = UInt64(b[i]) &- 48
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ d
            i += 1
        }
        let intDigits = i - firstDigit
        var fracDigits = 0
        if i < n && (b[i] == UInt8(ascii: ".") || (decimalComma && b[i] == UInt8(ascii: ","))) {
            i += 1
            let fracStart = i
            while i < n {
                let d = UInt64(b[i]) &- 48
                if d > 9 { break }
                mantissa = mantissa &* 10 &+ d
                i += 1
            }
            fracDigits = i - fracStart
        }
        if intDigits + fracDigits == 0 { return nil }
        if intDigits > 1 && b[firstDigit] == UInt8(ascii: "0") { return nil }
        var exponent = 0
        if i < n {
            guard b[i] | 0x20 == UInt8(ascii: "e") else { return nil }
            i += 1
            var expNegative = false
            if i < n && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { expNegative = b[i] == UInt8(ascii: "-"); i += 1 }
            if i == n { return nil }
            var e = 0
            while i < n {
                let d = Int(b[i]) - 48
                if d < 0 || d > 9 { return nil }
                if e < 100_000 { e = e * 10 + d }
                i += 1
            }
            exponent = expNegative ? -e : e
        }
        // Clinger's fast path: at most 15 digits make an exact mantissa, and a power of ten
        // up to 22 is exact too, so one multiplication or division rounds correctly.
        let scale = exponent - fracDigits
        if intDigits + fracDigits <= 15 && scale >= -22 && scale <= 22 {
            // Below 10^15 the mantissa is a positive Int64, whose conversion is one instruction
            // (an unsigned one is several).
            var v = Double(Int64(bitPattern: mantissa))
            v = scale < 0 ? v / powers[-scale] : v * powers[scale]
            return negative ? -v : v
        }
        return slow(b, decimalComma: decimalComma)
    }

    private static func slow(_ b: UnsafeRawBufferPointer, decimalComma: Bool) -> Double? {
        var text = Array(b)
        if decimalComma { for k in text.indices where text[k] == UInt8(ascii: ",") { text[k] = UInt8(ascii: ".") } }
        if text.filter({ $0 == UInt8(ascii: ".") }).count > 1 { return nil }
        text.append(0)
        return text.withUnsafeBufferPointer { p -> Double? in
            let base = UnsafeRawPointer(p.baseAddress!).assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>? = nil
            let v = strtod(base, &end)
            guard let end, end - UnsafeMutablePointer(mutating: base) == b.count else { return nil }
            return v
        }
    }

    public static func int(_ s: String) -> Int64? {
        var s = s
        return s.withUTF8 { int(UnsafeRawBufferPointer($0)) }
    }

    public static func double(_ s: String) -> Double? {
        var s = s
        return s.withUTF8 { double(UnsafeRawBufferPointer($0)) }
    }

    /// A number written in text a person asked to read as one (`number(x)`, `int(x)`): as in a
    /// cell, and also with leading zeros (`0820`, a clock time or a code) and as NaN or
    /// Infinity.
    public static func reading(_ text: String) -> Double? {
        var s = text
        return s.withUTF8 { b -> Double? in
            let raw = UnsafeRawBufferPointer(b)
            if let d = double(raw) { return d }
            if let d = special(raw) { return d }
            // Leading zeros: the same digits without them ("-007.5" is -7.5).
            var i = 0
            var sign = 1.0
            if i < raw.count, raw[i] == UInt8(ascii: "-") || raw[i] == UInt8(ascii: "+") { sign = raw[i] == UInt8(ascii: "-") ? -1 : 1; i += 1 }
            let start = i
            while i < raw.count - 1, raw[i] == UInt8(ascii: "0"), raw[i + 1] != UInt8(ascii: ".") { i += 1 }
            guard i > start else { return nil }
            return double(UnsafeRawBufferPointer(rebasing: raw[i...])).map { sign * $0 }
        }
    }

    /// A whole number written in text a person asked to read as one: as in a cell, and also
    /// with leading zeros (`08` is 8).
    public static func readingWhole(_ text: String) -> Int64? {
        if let i = int(text) { return i }
        var digits = Substring(text)
        var negative = false
        if let f = digits.first, f == "-" || f == "+" { negative = f == "-"; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let trimmed = digits.drop { $0 == "0" }
        return int((negative ? "-" : "") + (trimmed.isEmpty ? "0" : String(trimmed)))
    }

    /// A number as a person writes it, for `number(text)` and `int(text)`: leading zeros
    /// (`0820`), a sign, spaces around, and thousands separators. The rule:
    /// - with both `,` and `.`, the last one is the decimal mark and the other groups
    ///   thousands (`1,234.5`, `1.234,5`);
    /// - a space, a no-break space or `_` between digits groups thousands (`1 234,5`);
    /// - commas alone group thousands when every group after the first has three digits and
    ///   the first does not start with 0 (`1,234,567`); otherwise one comma is a decimal comma
    ///   (`3,25`, `0,125`). The same holds for points alone (`1.234.567` is a million and more).
    /// Groups must be well formed: `1,23,4` is not a number.
    public static func readingWritten(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let d = reading(t) { return d }
        var sign = ""
        var body = Substring(t)
        if let f = body.first, f == "-" || f == "+" { sign = f == "-" ? "-" : ""; body = body.dropFirst() }
        // Spaces and underscores between digits group thousands.
        let spaced = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" || $0 == "_" })
        if spaced.count > 1 {
            guard spaced.dropFirst().allSatisfy({ $0.prefix(while: { $0.isASCIIDigit }).count == 3 }),
                  let first = spaced.first, (1...3).contains(first.count), first.allSatisfy({ $0.isASCIIDigit }) else { return nil }
            body = Substring(spaced.joined())
        }
        guard body.allSatisfy({ $0.isASCIIDigit || $0 == "," || $0 == "." }), body.first?.isASCIIDigit == true else {
            return spaced.count > 1 ? reading(sign + body) : nil
        }
        let commas = body.filter { $0 == "," }.count, points = body.filter { $0 == "." }.count
        func grouped(_ s: Substring, by mark: Character) -> String? {
            let groups = s.split(separator: mark, omittingEmptySubsequences: false)
            guard let first = groups.first, (1...3).contains(first.count), first.first != "0",
                  groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
            return groups.joined()
        }
        var plain: String
        if commas > 0 && points > 0 {
            let decimal: Character = body.lastIndex(of: ",")! > body.lastIndex(of: ".")! ? "," : "."
            let thousands: Character = decimal == "," ? "." : ","
            guard body.filter({ $0 == decimal }).count == 1, let cut = body.lastIndex(of: decimal),
                  let whole = grouped(body[..<cut], by: thousands) else { return nil }
            plain = whole + "." + body[body.index(after: cut)...]
        } else if commas > 0 || points > 0 {
            let mark: Character = commas > 0 ? "," : "."
            if let whole = grouped(body, by: mark), (commas > 1 || mark == "," || points > 1) {
                plain = whole
            } else if body.filter({ $0 == mark }).count == 1 {
                plain = body.replacingOccurrences(of: String(mark), with: ".")
            } else {
                return nil
            }
        } else {
            plain = String(body)
        }
        return reading(sign + plain)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
