/// Reads date-times from bytes without Foundation: ISO 8601 (`2017-03-23T08:15:12+0100`,
/// `2017-03-23 08:15`, `…Z`, fractions) and the common day-first forms
/// (`23/03/2017 08:15`, `23.03.2017`, `04/05/2017, 23:21`). Loaders call this once per cell.
public enum TimestampParser {
    /// Field order of a date written with slashes, dots or dashes and the year last; or
    /// `compact`, a bare date written `20070604` (GTFS). Inference never picks `compact`:
    /// eight digits are as often a count or an id, so only a reader that knows the column
    /// holds dates asks for it.
    public enum DateOrder: Sendable { case dayFirst, monthFirst, compact }

    public struct Parsed: Sendable, Equatable {
        /// Wall-clock microseconds, as if the written time were UTC.
        public var wall: Int64
        /// The UTC offset written in the text, in seconds, if any.
        public var offset: Int32?
        /// False for a bare date (`2017-03-23`).
        public var hasTime: Bool

        /// The instant: the written offset when there is one, else the zone's rules.
        public func instant(in zone: ZoneRules) -> Int64 {
            if let offset { return wall - Int64(offset) * 1_000_000 }
            return zone.instant(wallMicros: wall)
        }
    }

    public static func parse(_ text: String, order: DateOrder = .dayFirst) -> Parsed? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0), order: order) }
    }

    /// Parses the whole buffer (surrounding spaces allowed) or returns nil.
    public static func parse(_ bytes: UnsafeRawBufferPointer, order: DateOrder = .dayFirst) -> Parsed? {
        if order == .compact { return compactDate(bytes) }
        var r = Reader(bytes: bytes)
        r.skipSpaces()
        guard let first = r.number(maxDigits: 4) else { return nil }
        var year = 0, month = 0, day = 0
        if first.digits == 4 {
            // Year first: 2017-03-23 or 2017/03/23.
            guard let sep = r.peek(), sep == UInt8(ascii: "-") || sep == UInt8(ascii: "/") else { return nil }
            r.advance()
            guard let m = r.number(maxDigits: 2), r.eat(sep), let d = r.number(maxDigits: 2) else { return nil }
            year = first.value; month = m.value; day = d.value
        } else if first.digits <= 2 {
            guard let sep = r.peek(), sep == UInt8(ascii: "/") || sep == UInt8(ascii: ".") || sep == UInt8(ascii: "-") else { return nil }
            r.advance()
            guard let second = r.number(maxDigits: 2), r.eat(sep), let y = r.number(maxDigits: 4) else { return nil }
            // Two-digit years are read only month-first, as US spreadsheets write them
            // (09/22/17): 00–68 are 2000–2068 and 69–99 are 1969–1999, as POSIX's %y.
            switch y.digits {
            case 4: year = y.value
            case 2 where order == .monthFirst: year = y.value < 69 ? 2000 + y.value : 1900 + y.value
            default: return nil
            }
            switch order {
            case .dayFirst, .compact: day = first.value; month = second.value
            case .monthFirst: month = first.value; day = second.value
            }
        } else {
            return nil
        }
        // Year 0 is before the first time utq holds (year 1).
        guard year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilTime.daysInMonth(year: year, month: month) else { return nil }
        var result = Parsed(wall: CivilTime.daysFromCivil(year: year, month: month, day: day) * CivilTime.microsPerDay,
                            offset: nil, hasTime: false)
        // Separator between date and time: T, space(s), a comma and space.
        var sawSeparator = false
        if r.eat(UInt8(ascii: "T")) || r.eat(UInt8(ascii: "t")) { sawSeparator = true }
        else {
            if r.eat(UInt8(ascii: ",")) { sawSeparator = true }
            if r.skipSpaces() { sawSeparator = true }
        }
        if r.atEnd { return result }
        guard sawSeparator else { return nil }
        guard let h = r.number(maxDigits: 2), r.eat(UInt8(ascii: ":")), let mi = r.number(maxDigits: 2), mi.digits == 2 else { return nil }
        var sec = 0, micro = 0
        if r.eat(UInt8(ascii: ":")) {
            guard let s = r.number(maxDigits: 2), s.digits == 2 else { return nil }
            sec = s.value
            if r.eat(UInt8(ascii: ".")) || r.eat(UInt8(ascii: ",")) {
                guard let frac = r.fraction() else { return nil }
                micro = frac
            }
        }
        var hour = h.value
        // A 12-hour clock: 10:00 PM, 12:05 am.
        r.skipSpaces()
        if let pm = r.meridiem() {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard hour <= 24, mi.value < 60, sec <= 60 else { return nil }
        if hour == 24 && (mi.value != 0 || sec != 0) { return nil }
        result.wall += Int64(hour) * CivilTime.microsPerHour + Int64(mi.value) * CivilTime.microsPerMinute
            + Int64(min(sec, 59)) * CivilTime.microsPerSecond + Int64(micro)
        // 24:00 of the last day of year 9999 is the first moment of a year utq does not hold.
        guard result.wall <= Checked.lastTime else { return nil }
        result.hasTime = true
        r.skipSpaces()
        if r.atEnd { return result }
        // Offset: Z, +01:00, +0100, +01, or " UTC".
        if r.eat(UInt8(ascii: "Z")) || r.eat(UInt8(ascii: "z")) {
            result.offset = 0
        } else if let c = r.peek(), c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            r.advance()
            guard let oh = r.fixed(2) else { return nil }
            var om = 0, os = 0
            if r.eat(UInt8(ascii: ":")) {
                guard let m = r.fixed(2) else { return nil }
                om = m
                // +00:39:49: an offset with seconds (local mean time).
                if r.eat(UInt8(ascii: ":")) {
                    guard let sec = r.fixed(2) else { return nil }
                    os = sec
                }
            } else if let m = r.fixed(2) {
                om = m
            }
            guard oh <= 14, om < 60, os < 60 else { return nil }
            let seconds = Int32(oh * 3600 + om * 60 + os)
            result.offset = c == UInt8(ascii: "-") ? -seconds : seconds
            // An offset may carry the first or last day of the years utq holds past them.
            guard Checked.isTime(result.instant(in: .utc)) else { return nil }
        } else if r.eatWord("UTC") || r.eatWord("GMT") {
            result.offset = 0
        } else {
            return nil
        }
        r.skipSpaces()
        return r.atEnd ? result : nil
    }

    /// `YYYYMMDD` and nothing else (spaces around allowed): a date at midnight.
    static func compactDate(_ bytes: UnsafeRawBufferPointer) -> Parsed? {
        var r = Reader(bytes: bytes)
        r.skipSpaces()
        guard let year = r.fixed(4), let month = r.fixed(2), let day = r.fixed(2) else { return nil }
        r.skipSpaces()
        guard r.atEnd, year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilTime.daysInMonth(year: year, month: month) else { return nil }
        return Parsed(wall: CivilTime.daysFromCivil(year: year, month: month, day: day) * CivilTime.microsPerDay,
                      offset: nil, hasTime: false)
    }

    /// Whether a date written `a/b/yyyy` can only be month-first (its second field is over 12).
    public static func looksMonthFirst(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == "/" || $0 == "." || $0 == "-" || $0 == " " || $0 == "," })
        guard parts.count >= 3, parts[0].count <= 2, let a = Int(parts[0]), let b = Int(parts[1]) else { return false }
        return a <= 12 && b > 12
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
        mutating func advance() { index += 1 }

        mutating func eat(_ c: UInt8) -> Bool {
            if index < bytes.count && bytes[index] == c { index += 1; return true }
            return false
        }

        @discardableResult
        mutating func skipSpaces() -> Bool {
            let start = index
            while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
            return index > start
        }

        /// AM or PM in any case, with or without dots (a.m.): true for PM.
        mutating func meridiem() -> Bool? {
            let start = index
            func letter() -> UInt8? {
                guard let c = peek() else { return nil }
                index += 1
                return c | 0x20
            }
            guard let half = letter(), half == UInt8(ascii: "a") || half == UInt8(ascii: "p") else { index = start; return nil }
            _ = eat(UInt8(ascii: "."))
            guard letter() == UInt8(ascii: "m") else { index = start; return nil }
            _ = eat(UInt8(ascii: "."))
            return half == UInt8(ascii: "p")
        }

        mutating func eatWord(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard index + n <= bytes.count else { return false }
            let p = word.utf8Start
            for i in 0..<n where bytes[index + i] != p[i] { return false }
            index += n
            return true
        }

        mutating func number(maxDigits: Int) -> (value: Int, digits: Int)? {
            var value = 0, digits = 0
            while index < bytes.count, digits < maxDigits {
                let d = Int(bytes[index]) - 48
                if d < 0 || d > 9 { break }
                value = value * 10 + d
                digits += 1
                index += 1
            }
            if digits == 0 { return nil }
            // More digits than allowed means this is not the field we expected.
            if index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { return nil }
            return (value, digits)
        }

        /// Exactly `n` digits.
        mutating func fixed(_ n: Int) -> Int? {
            guard index + n <= bytes.count else { return nil }
            var v = 0
            for k in 0..<n {
                let d = Int(bytes[index + k]) - 48
                if d < 0 || d > 9 { return nil }
                v = v * 10 + d
            }
            index += n
            return v
        }

        /// Up to 9 fraction digits, returned as microseconds.
        mutating func fraction() -> Int? {
            var value = 0, digits = 0
            while index < bytes.count {
                let d = Int(bytes[index]) - 48
                if d < 0 || d > 9 { break }
                if digits < 6 { value = value * 10 + d }
                digits += 1
                index += 1
            }
            if digits == 0 { return nil }
            if digits < 6 { for _ in digits..<6 { value *= 10 } }
            return value
        }
    }
}

extension TimestampParser {
    /// Remembers the day of the last date read: a column of times holds many on one day.
    public struct DayCache: Sendable {
        var key: UInt64 = 0
        var tail: UInt16 = 0
        var days: Int64 = 0
        var valid = false
        public init() {}
        init(key: UInt64, tail: UInt16, days: Int64, valid: Bool) {
            self.key = key; self.tail = tail; self.days = days; self.valid = valid
        }
    }

    /// ISO 8601 at fixed positions (`2017-03-23T08:15:12+01:00`, `…Z`, `…+0100`, a space for T,
    /// fractions), read without branching on each character's role; anything else goes to `parse`.
    @inline(__always)
    public static func parseFast(_ b: UnsafeRawBufferPointer, order: DateOrder, cache: inout DayCache) -> Parsed? {
        let n = b.count
        guard n >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A else {
            return parse(b, order: order)
        }
        @inline(__always) func d(_ i: Int) -> Int64 { Int64(b[i]) &- 48 }
        @inline(__always) func two(_ i: Int) -> Int64? {
            let x = d(i), y = d(i + 1)
            return (x >= 0 && x <= 9 && y >= 0 && y <= 9) ? x * 10 + y : nil
        }
        let key = b.loadUnaligned(as: UInt64.self)
        let tail = b.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        var days: Int64
        if cache.valid && cache.key == key && cache.tail == tail {
            days = cache.days
        } else {
            guard let y1 = two(0), let y2 = two(2), let m = two(5), let dd = two(8), y1 + y2 > 0,
                  m >= 1, m <= 12, dd >= 1, dd <= Int64(CivilTime.daysInMonth(year: Int(y1 * 100 + y2), month: Int(m))) else {
                return parse(b, order: order)
            }
            days = CivilTime.daysFromCivil(year: Int(y1 * 100 + y2), month: Int(m), day: Int(dd))
            cache = DayCache(key: key, tail: tail, days: days, valid: true)
        }
        guard let hh = two(11), let mm = two(14), let ss = two(17), hh < 24, mm < 60, ss < 60 else { return parse(b, order: order) }
        var wall = days * CivilTime.microsPerDay + hh * CivilTime.microsPerHour + mm * CivilTime.microsPerMinute + ss * CivilTime.microsPerSecond
        var i = 19
        if i < n && (b[i] == 0x2E || b[i] == 0x2C) {
            i += 1
            var frac: Int64 = 0, digits = 0
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                if digits < 6 { frac = frac * 10 + Int64(b[i] - 0x30) }
                digits += 1
                i += 1
            }
            if digits == 0 { return parse(b, order: order) }
            var k = digits
            while k < 6 { frac *= 10; k += 1 }
            wall += frac
        }
        if i == n { return Parsed(wall: wall, offset: nil, hasTime: true) }
        let c = b[i]
        if (c == 0x5A || c == 0x7A) && i + 1 == n { return Parsed(wall: wall, offset: 0, hasTime: true) }
        if c == 0x2B || c == 0x2D {
            guard let oh = two(i + 1) else { return parse(b, order: order) }
            var om: Int64 = 0, os: Int64 = 0
            if i + 6 == n && b[i + 3] == 0x3A { guard let m = two(i + 4) else { return parse(b, order: order) }; om = m }
            else if i + 9 == n && b[i + 3] == 0x3A && b[i + 6] == 0x3A {
                guard let m = two(i + 4), let sec = two(i + 7) else { return parse(b, order: order) }
                om = m; os = sec
            }
            else if i + 5 == n { guard let m = two(i + 3) else { return parse(b, order: order) }; om = m }
            else if i + 3 != n { return parse(b, order: order) }
            guard oh <= 14, om < 60, os < 60 else { return nil }
            let seconds = Int32(oh * 3600 + om * 60 + os)
            let parsed = Parsed(wall: wall, offset: c == 0x2D ? -seconds : seconds, hasTime: true)
            return Checked.isTime(parsed.instant(in: .utc)) ? parsed : nil
        }
        return parse(b, order: order)
    }
}
