import Foundation
import Synchronization

/// A time zone's UTC offsets as a sorted list of transitions, so that converting
/// an instant to wall time is a binary search instead of a Foundation call per row.
public final class ZoneRules: Sendable {
    public let identifier: String
    /// Instants (seconds since the epoch) at which the offset changes, ascending.
    private let transitions: [Int64]
    /// offsets[i] applies before transitions[i]; offsets.last applies after the last one.
    private let offsets: [Int32]

    public static let utc = ZoneRules(identifier: "UTC", transitions: [], offsets: [0])

    private init(identifier: String, transitions: [Int64], offsets: [Int32]) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
    }

    private static let cache = Mutex<[String: ZoneRules]>([:])

    /// The rules for an IANA zone name (`Europe/Oslo`), or nil when the name is unknown.
    public static func named(_ name: String) -> ZoneRules? {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let upper = name.uppercased()
        if upper == "UTC" || upper == "Z" || upper == "GMT" || upper == "ETC/UTC" { return .utc }
        // Named zones come from Foundation's ICU-backed implementation, which a statically
        // linked build includes only when code refers to it; asking for the list of names when
        // a name is not found is that reference (and a second chance for the name).
        guard let tz = TimeZone(identifier: name)
                ?? (TimeZone.knownTimeZoneIdentifiers.contains(name) ? TimeZone(identifier: name) : nil) else {
            if let fixed = fixedOffsetZone(name) { return fixed }
            return nil
        }
        let rules = build(tz, identifier: name)
        cache.withLock { $0[name] = rules }
        return rules
    }

    /// The machine's zone: TZ when set, else the system setting: the zone /etc/localtime
    /// links to (asked of Foundation only when it is not a link: Foundation's answer goes
    /// through ICU, which took a twentieth of starting for a name the link says).
    public static var local: ZoneRules {
        if let tz = Environment.value("TZ"), !tz.isEmpty,
           let rules = named(tz.hasPrefix(":") ? String(tz.dropFirst()) : tz) {
            return rules
        }
        if let linked = linkedZoneName(), let rules = named(linked) { return rules }
        return named(TimeZone.current.identifier) ?? .utc
    }

    /// The zone name in the path /etc/localtime links to (`…/zoneinfo/Europe/Oslo`).
    static func linkedZoneName(_ link: String = "/etc/localtime") -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
              let range = target.range(of: "zoneinfo/", options: .backwards) else { return nil }
        let name = String(target[range.upperBound...])
        return name.isEmpty ? nil : name
    }

    /// A zone with a fixed offset, written `+01:00`, `-0530` or `UTC+2`.
    public static func fixedOffsetZone(_ text: String) -> ZoneRules? {
        var s = Substring(text)
        if s.uppercased().hasPrefix("UTC") { s = s.dropFirst(3) } else if s.uppercased().hasPrefix("GMT") { s = s.dropFirst(3) }
        guard let sign = s.first, sign == "+" || sign == "-" else { return nil }
        let digits = s.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isNumber), let n = Int(digits) else { return nil }
        let (h, m) = digits.count <= 2 ? (n, 0) : (n / 100, n % 100)
        guard h <= 14, m < 60 else { return nil }
        let seconds = Int32((h * 3600 + m * 60) * (sign == "-" ? -1 : 1))
        let name = String(format: "%@%02d:%02d", sign == "-" ? "-" : "+", h, m)
        return ZoneRules(identifier: name, transitions: [], offsets: [seconds])
    }

    private static func build(_ tz: TimeZone, identifier: String) -> ZoneRules {
        let start: Int64 = -2_208_988_800  // 1900-01-01
        let end: Int64 = 4_102_444_800     // 2100-01-01
        var transitions: [Int64] = []
        var offsets: [Int32] = [Int32(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start))))]
        var cursor = Date(timeIntervalSince1970: Double(start))
        while let next = tz.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < Double(end) {
            let at = Int64(next.timeIntervalSince1970.rounded())
            let offset = Int32(tz.secondsFromGMT(for: next))
            if offset != offsets.last! {
                transitions.append(at)
                offsets.append(offset)
            }
            cursor = next
        }
        return ZoneRules(identifier: identifier, transitions: transitions, offsets: offsets)
    }

    /// Whether the zone never changes its offset (UTC, fixed offsets).
    public var isFixed: Bool { transitions.isEmpty }

    /// Offset from UTC in seconds at an instant given in microseconds since the epoch.
    @inlinable
    public func offsetSeconds(atMicros micros: Int64) -> Int32 {
        offsetSeconds(atSecond: CivilTime.floorDiv(micros, 1_000_000))
    }

    public func offsetSeconds(atSecond second: Int64) -> Int32 {
        if transitions.isEmpty { return offsets[0] }
        // First transition strictly after `second`.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if transitions[mid] <= second { lo = mid + 1 } else { hi = mid }
        }
        return offsets[lo]
    }

    /// Wall-clock microseconds (as if UTC) of an instant.
    @inlinable
    public func wallMicros(_ micros: Int64) -> Int64 {
        micros + Int64(offsetSeconds(atMicros: micros)) * 1_000_000
    }

    /// The instant of a wall-clock time in this zone. In a gap (spring forward) the
    /// time is read with the offset before the change; in an overlap, the earlier instant.
    public func instant(wallMicros wall: Int64) -> Int64 { resolve(wallMicros: wall).instant }

    /// The instant of a wall-clock time, and whether that time does not exist (it falls in
    /// the hour skipped when clocks go forward).
    public func resolve(wallMicros wall: Int64) -> (instant: Int64, inGap: Bool) {
        if transitions.isEmpty { return (wall - Int64(offsets[0]) * 1_000_000, false) }
        // Offsets are under a day, so the offsets a day either side of the wall time are the
        // ones before and after any change that could touch it; each gives one reading.
        let before = wall - Int64(offsetSeconds(atMicros: wall - CivilTime.microsPerDay)) * 1_000_000
        let after = wall - Int64(offsetSeconds(atMicros: wall + CivilTime.microsPerDay)) * 1_000_000
        if before == after { return (before, false) }
        switch (wallMicros(before) == wall, wallMicros(after) == wall) {
        case (true, true): return (min(before, after), false)  // overlap: the earlier instant
        case (false, true): return (after, false)
        case (true, false): return (before, false)
        case (false, false): return (before, true)             // gap: the offset before the change
        }
    }

    /// A cursor for converting many instants that are mostly in order (a sorted or
    /// clustered time column): it keeps the current transition interval.
    public func makeCursor() -> Cursor { Cursor(rules: self) }

    public struct Cursor {
        let rules: ZoneRules
        var lower: Int64 = .max
        var upper: Int64 = .min
        var offset: Int64 = 0

        init(rules: ZoneRules) {
            self.rules = rules
            if rules.transitions.isEmpty {
                lower = .min; upper = .max; offset = Int64(rules.offsets[0]) * 1_000_000
            }
        }

        /// Wall-clock microseconds of an instant.
        @inline(__always)
        public mutating func wall(_ micros: Int64) -> Int64 {
            if micros >= lower && micros < upper { return micros &+ offset }
            return slow(micros)
        }

        mutating func slow(_ micros: Int64) -> Int64 {
            let second = CivilTime.floorDiv(micros, 1_000_000)
            let t = rules.transitions
            var lo = 0, hi = t.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if t[mid] <= second { lo = mid + 1 } else { hi = mid }
            }
            lower = lo == 0 ? .min : t[lo - 1] * 1_000_000
            upper = lo == t.count ? .max : t[lo] * 1_000_000
            offset = Int64(rules.offsets[lo]) * 1_000_000
            return micros &+ offset
        }
    }
}
