/// Clock times as surveys and logs write them: `0820` and `820` (hours and minutes run
/// together, as the PLDP exports write Start_time), `8:20`, `08:20:00`, `8:20 PM`, `12:05am`,
/// `8.20` is not read (it is a number). The value is the time since midnight, in microseconds.
public enum ClockText {
    public static func parse(_ text: String) -> Int64? {
        var s = text
        return s.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    public static func parse(_ b: UnsafeRawBufferPointer) -> Int64? {
        var start = 0, end = b.count
        while start < end, b[start] == 0x20 || b[start] == 0x09 { start += 1 }
        while end > start, b[end - 1] == 0x20 || b[end - 1] == 0x09 { end -= 1 }
        // The longest clock (`12:05:00.123456 p.m.`) is 20 bytes: a long cell (a 50 MB line)
        // is no clock and is not scanned.
        guard start < end, end - start <= 32 else { return nil }
        // AM/PM at the end, with or without a space or points (`8:20 p.m.`).
        var meridiem: Bool? = nil  // true: PM
        var letters: [UInt8] = []
        var k = end
        while k > start, let c = lowerLetter(b[k - 1]) ?? (b[k - 1] == UInt8(ascii: ".") ? UInt8(ascii: ".") : nil) {
            if c != UInt8(ascii: ".") { letters.insert(c, at: 0) }
            k -= 1
        }
        if !letters.isEmpty {
            switch letters {
            case Array("am".utf8), Array("a".utf8): meridiem = false
            case Array("pm".utf8), Array("p".utf8): meridiem = true
            default: return nil
            }
            end = k
            while end > start, b[end - 1] == 0x20 { end -= 1 }
        }
        let body = UnsafeRawBufferPointer(rebasing: b[start..<end])
        guard !body.isEmpty else { return nil }
        var micros: Int64
        if body.contains(UInt8(ascii: ":")) {
            guard body[0] != UInt8(ascii: "-"), let c = DurationParser.clock(body) else { return nil }
            micros = c
        } else {
            // HMM or HHMM: digits only, minutes under 60.
            guard body.count == 3 || body.count == 4, body.allSatisfy({ $0 &- 48 <= 9 }) else { return nil }
            let digits = body.map { Int64($0 - 48) }
            let minutes = digits[digits.count - 2] * 10 + digits[digits.count - 1]
            let hours = digits.count == 4 ? digits[0] * 10 + digits[1] : digits[0]
            guard minutes < 60 else { return nil }
            micros = (hours * 60 + minutes) * 60_000_000
        }
        let hour = micros / 3_600_000_000
        if let pm = meridiem {
            // 12-hour clocks: 12 AM is midnight, 12 PM is noon; 13 PM is not a time.
            guard hour >= 1 && hour <= 12 else { return nil }
            if hour == 12 { micros -= 12 * 3_600_000_000 }
            if pm { micros += 12 * 3_600_000_000 }
        } else if !body.contains(UInt8(ascii: ":")) && hour > 24 {
            return nil
        }
        return micros
    }

    @inline(__always)
    static func lowerLetter(_ c: UInt8) -> UInt8? {
        if c >= 65 && c <= 90 { return c + 32 }
        if c >= 97 && c <= 122 { return c }
        return nil
    }
}
