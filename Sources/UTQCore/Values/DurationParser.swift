/// Durations written for people: Google's route text ("45 mins", "1 hour 5 mins",
/// "2 days 3 hours"), compact forms ("1h 5m", "90s"), and clock times past midnight
/// as GTFS writes them ("25:10:00"), which stay durations so hour 25 is 25.
public enum DurationParser {
    public enum Style: Sendable { case words, clock }

    public static func parse(_ text: String) -> (micros: Int64, style: Style)? {
        var s = text
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    public static func parse(_ b: UnsafeRawBufferPointer) -> (micros: Int64, style: Style)? {
        if let c = clock(b) { return (c, .clock) }
        if let w = words(b) { return (w, .words) }
        return nil
    }

    public static func clock(_ text: String) -> Int64? {
        var s = text
        return s.withUTF8 { clock(UnsafeRawBufferPointer($0)) }
    }

    /// `H:MM:SS` or `HH:MM` (hours may pass 24), with a sign and a fraction of a second as
    /// the writers produce them (`-00:01:05`, `01:05:00.5`).
    public static func clock(_ b: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        let n = b.count
        while i < n && b[i] == 0x20 { i += 1 }
        var end = n
        while end > i && b[end - 1] == 0x20 { end -= 1 }
        let negative = i < end && b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var fields: [Int64] = []
        var digits = 0
        var current: Int64 = 0
        var micros: Int64 = 0
        while i < end {
            let c = b[i]
            if c >= 48 && c <= 57 {
                current = current * 10 + Int64(c - 48)
                digits += 1
                if digits > 3 { return nil }
            } else if c == UInt8(ascii: ":") {
                if digits == 0 { return nil }
                fields.append(current); current = 0; digits = 0
            } else if c == UInt8(ascii: "."), fields.count == 2, digits > 0, i + 1 < end {
                // Fraction of the seconds field; digits past microseconds are dropped.
                var scale: Int64 = 100_000
                for k in (i + 1)..<end {
                    guard b[k] >= 48 && b[k] <= 57 else { return nil }
                    micros += Int64(b[k] - 48) * scale
                    scale /= 10
                }
                break
            } else {
                return nil
            }
            i += 1
        }
        if digits == 0 { return nil }
        fields.append(current)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        guard fields[1] < 60, fields.count == 2 || fields[2] < 60 else { return nil }
        let seconds = fields[0] * 3600 + fields[1] * 60 + (fields.count == 3 ? fields[2] : 0)
        let total = seconds * 1_000_000 + micros
        return negative ? -total : total
    }

    /// Number-and-unit pairs: `1 hour 5 mins`, `45 min`, `1h5m`, `2 days`, `30 secs`. A number
    /// with m alone is not a duration, since it may as well be metres.
    public static func words(_ b: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        let n = b.count
        var total: Double = 0
        var pairs = 0
        func skipSpace() { while i < n && (b[i] == 0x20 || b[i] == UInt8(ascii: ",")) { i += 1 } }
        skipSpace()
        while i < n {
            // number
            let start = i
            while i < n && ((b[i] >= 48 && b[i] <= 57) || b[i] == UInt8(ascii: ".")) { i += 1 }
            if i == start { return nil }
            guard let number = NumberParser.double(UnsafeRawBufferPointer(rebasing: b[start..<i])) else { return nil }
            while i < n && b[i] == 0x20 { i += 1 }
            let wordStart = i
            while i < n && ((b[i] | 0x20) >= UInt8(ascii: "a") && (b[i] | 0x20) <= UInt8(ascii: "z")) { i += 1 }
            if i == wordStart { return nil }
            let word = String(decoding: UnsafeRawBufferPointer(rebasing: b[wordStart..<i]), as: UTF8.self).lowercased()
            guard let unit = unitSeconds[word] else { return nil }
            total += number * unit
            pairs += 1
            skipSpace()
            // A lone m may be metres (a road's 8630 m); beside another unit it is minutes (1h 5m).
            if word == "m" && pairs == 1 && i >= n { return nil }
        }
        guard pairs > 0 else { return nil }
        // A span past what microseconds in 64 bits hold (about 292,000 years) is no duration.
        return Int64(exactly: (total * 1_000_000).rounded())
    }

    static let unitSeconds: [String: Double] = [
        "d": 86_400, "day": 86_400, "days": 86_400,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "w": 604_800, "week": 604_800, "weeks": 604_800,
    ]
}
