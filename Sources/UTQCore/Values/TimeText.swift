import Foundation

/// Writing timestamps and durations as text, in a zone and at a unit.
public enum TimeText {
    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func four(_ n: Int) -> String {
        if n >= 1000 && n <= 9999 { return String(n) }
        if n >= 0 { return String(repeating: "0", count: max(0, 4 - String(n).count)) + String(n) }
        return String(n)
    }

    /// For tables: `2017-03-23 08:15:12`, shortened to the unit (`2017-03-23`, `2017-W12`, `2017-03`).
    public static func display(_ micros: Int64, zone: ZoneRules, unit: DisplayUnit) -> String {
        let wall = zone.wallMicros(micros)
        let t = LocalDateTime(wallMicros: wall)
        switch unit {
        case .year: return four(t.year)
        case .month: return "\(four(t.year))-\(two(t.month))"
        case .week:
            let w = CivilTime.isoWeek(days: CivilTime.floorDiv(wall, CivilTime.microsPerDay))
            return "\(four(w.year))-W\(two(w.week))"
        case .day: return "\(four(t.year))-\(two(t.month))-\(two(t.day))"
        case .hour, .minute:
            return "\(four(t.year))-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute))"
        case .second, .automatic, .clock:
            var s = "\(four(t.year))-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute)):\(two(t.second))"
            if t.microsecond != 0 { s += fraction(t.microsecond) }
            return s
        }
    }

    /// ISO 8601 with the zone's offset: `2017-03-23T08:15:12+01:00`; dates and coarser
    /// buckets are written as the calendar value they name.
    public static func iso(_ micros: Int64, zone: ZoneRules, unit: DisplayUnit = .automatic) -> String {
        switch unit {
        case .day, .week, .month, .year: return display(micros, zone: zone, unit: unit)
        default: break
        }
        let offset = Int(zone.offsetSeconds(atMicros: micros))
        let t = LocalDateTime(wallMicros: micros + Int64(offset) * 1_000_000)
        var s = "\(four(t.year))-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):\(two(t.second))"
        if t.microsecond != 0 { s += fraction(t.microsecond) }
        s += offsetText(offset)
        return s
    }

    public static func offsetText(_ seconds: Int) -> String {
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let a = abs(seconds)
        // Offsets of local mean time, and many zones' before 1972, have seconds: kept, so the
        // text reads back as the same instant.
        let s = a % 60 == 0 ? "" : ":\(two(a % 60))"
        return "\(sign)\(two(a / 3600)):\(two((a % 3600) / 60))" + s
    }

    static func fraction(_ micro: Int) -> String {
        var digits = String(micro)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "." + digits
    }

    /// A duration for people: `45 min`, `1 h 05 min`, `2 d 3 h`, `12.5 s`, or a clock `25:10:00`.
    public static func duration(_ micros: Int64, unit: DisplayUnit = .automatic) -> String {
        let negative = micros < 0
        let m = negative ? -micros : micros
        let sign = negative ? "-" : ""
        if unit == .clock {
            let s = m / 1_000_000
            return "\(sign)\(two(Int(s / 3600))):\(two(Int(s % 3600 / 60))):\(two(Int(s % 60)))"
        }
        let totalSeconds = Double(m) / 1_000_000
        if totalSeconds < 60 {
            let text = totalSeconds == totalSeconds.rounded() ? String(Int(totalSeconds)) : NumberText.fixed(totalSeconds, decimals: 1)
            return "\(sign)\(text) s"
        }
        let secs = Int64((totalSeconds).rounded())
        let d = secs / 86_400, h = (secs % 86_400) / 3600, mi = (secs % 3600) / 60, s = secs % 60
        if d > 0 { return "\(sign)\(d) d" + (h > 0 || mi > 0 ? " \(h) h" : "") + (mi > 0 ? " \(two(Int(mi))) min" : "") }
        if h > 0 { return mi == 0 && s == 0 ? "\(sign)\(h) h" : "\(sign)\(h) h \(two(Int(mi))) min" }
        if s == 0 { return "\(sign)\(mi) min" }
        return "\(sign)\(mi) min \(two(Int(s))) s"
    }

    /// ISO 8601 duration for machine formats: `PT1H5M`.
    public static func isoDuration(_ micros: Int64) -> String {
        let negative = micros < 0
        var m = negative ? -micros : micros
        let h = m / CivilTime.microsPerHour; m %= CivilTime.microsPerHour
        let mi = m / CivilTime.microsPerMinute; m %= CivilTime.microsPerMinute
        var s = "PT"
        if h > 0 { s += "\(h)H" }
        if mi > 0 { s += "\(mi)M" }
        if m > 0 || (h == 0 && mi == 0) {
            let secs = Double(m) / 1_000_000
            s += (secs == secs.rounded() ? String(Int64(secs)) : NumberText.double(secs)) + "S"
        }
        return (negative ? "-" : "") + s
    }
}
