/// Ticks and labels for an x axis of times, hours of the day, years or plain numbers.
/// Positions are Doubles: the number itself, or microseconds for a timestamp.
struct AxisTicks: Sendable {
    enum Kind: Sendable {
        case number(ValueFormat)
        /// Hours of the day (0 … 23, or past 24 on GTFS service days), labelled 08.
        case hour
        case year
        /// Times; ticks are never closer than `finest` (a minute key has no ticks between minutes).
        case time(ZoneRules, finest: DisplayUnit)
    }
    let kind: Kind

    /// At most `maxTicks` ticks inside `lo … hi`, each with its label.
    func ticks(_ lo: Double, _ hi: Double, maxTicks: Int) -> [(Double, String)] {
        guard lo.isFinite, hi.isFinite else { return [] }
        let count = max(1, maxTicks)
        switch kind {
        case .number(let format) where format.kind == .duration:
            // Round steps in the unit the labels use (every 5 h, not every 20,000 s).
            let (unit, _) = format.durationUnit(span: max(abs(lo), abs(hi)))
            let scale = NiceScale(covering: lo / unit, hi / unit, intervals: count)
            return scale.ticks.map { $0 * unit }.filter { $0 >= lo - 1e-9 && $0 <= hi + 1e-9 }
                .map { ($0, format.tick($0, step: scale.step * unit)) }
        case .number(let format):
            let scale = NiceScale(covering: lo, hi, intervals: count)
            return scale.ticks.filter { $0 >= lo - 1e-9 && $0 <= hi + 1e-9 }.map { ($0, format.tick($0, step: scale.step)) }
        case .hour:
            // Hours past a few days (a GTFS feed's hour 25 is fine) read better as numbers.
            guard let step = [1.0, 2, 3, 4, 6, 12, 24].first(where: { (hi - lo) / $0 <= Double(count) }) else {
                return AxisTicks(kind: .number(ValueFormat(kind: .number, values: []))).ticks(lo, hi, maxTicks: maxTicks)
            }
            return stride(from: (lo / step).rounded(.up) * step, through: hi, by: step).map { ($0, AxisTicks.hourLabel($0)) }
        case .year:
            let step = max(1, NiceScale.step(for: (hi - lo) / Double(count)))
            return stride(from: (lo / step).rounded(.up) * step, through: hi, by: step).map { ($0, NumberText.fixed($0, decimals: 0)) }
        case .time(let zone, let finest):
            // Far outside any calendar the zone arithmetic would overflow: no ticks.
            guard abs(lo) < 1e17, abs(hi) < 1e17 else { return [] }
            return TimeTicks(zone: zone, finest: finest).ticks(Int64(lo), Int64(hi), maxTicks: count)
        }
    }

    static func hourLabel(_ h: Double) -> String {
        guard h.isFinite, abs(h) < 1e9 else { return "" }
        let n = Int(cells: h.rounded())
        return n >= 0 && n < 10 ? "0\(n)" : String(n)
    }
}

/// Ticks on a time axis: whole minutes, hours, days, weeks (Mondays), months or years in
/// the table's zone, labelled for reading (12:15, 23 Mar, Mar 2017).
struct TimeTicks {
    let zone: ZoneRules
    var finest: DisplayUnit = .second

    /// The shortest tick step a key of this unit allows, in microseconds.
    var minimumSpan: Int64 {
        switch finest {
        case .minute: return TimeTicks.minute
        case .hour: return TimeTicks.hour
        case .day: return TimeTicks.day
        case .week: return 7 * TimeTicks.day
        case .month, .year: return Int64.max
        default: return 1_000_000
        }
    }

    static let minute = CivilTime.microsPerMinute, hour = CivilTime.microsPerHour, day = CivilTime.microsPerDay
    static let spans: [Int64] = [1_000_000, 2_000_000, 5_000_000, 10_000_000, 15_000_000, 30_000_000,
                                 minute, 2 * minute, 5 * minute, 10 * minute, 15 * minute, 30 * minute,
                                 hour, 2 * hour, 3 * hour, 6 * hour, 12 * hour, day, 2 * day, 7 * day]
    static let monthSteps = [1, 2, 3, 6, 12, 24, 60, 120, 240, 600, 1200]
    static let monthNames = CivilTime.monthNames

    func ticks(_ lo: Int64, _ hi: Int64, maxTicks: Int) -> [(Double, String)] {
        guard hi >= lo else { return [] }
        let range = Double(hi) - Double(lo)
        let oneDay = LocalDateTime(wallMicros: zone.wallMicros(lo)).dateKey == LocalDateTime(wallMicros: zone.wallMicros(hi)).dateKey
        if let span = TimeTicks.spans.first(where: { $0 >= minimumSpan && range / Double($0) <= Double(maxTicks) }) {
            var out: [(Double, String)] = []
            let wallLo = zone.wallMicros(lo)
            var wall: Int64
            if span == 7 * TimeTicks.day {
                let days = CivilTime.floorDiv(wallLo, TimeTicks.day)
                wall = CivilTime.weekStart(days: days) * TimeTicks.day
            } else {
                wall = CivilTime.floorDiv(wallLo, span) * span
            }
            while out.count <= maxTicks + 2 {
                let instant = zone.instant(wallMicros: wall)
                if instant > hi { break }
                if instant >= lo { out.append((Double(instant), label(wall, span: span, oneDay: oneDay))) }
                wall += span
            }
            return out
        }
        // Months and years: whole calendar months from the first of a month.
        let first = LocalDateTime(wallMicros: zone.wallMicros(lo))
        let months = range / Double(30 * TimeTicks.day)
        let step = TimeTicks.monthSteps.first { ($0 >= 12 || finest != .year) && months / Double($0) <= Double(maxTicks) } ?? 1200
        var index = first.year * 12 + (first.month - 1)
        index = Int(cells: (Double(index) / Double(step)).rounded(.down)) * step
        var out: [(Double, String)] = []
        while out.count <= maxTicks + 2 {
            let y = Int(CivilTime.floorDiv(Int64(index), 12)), m = Int(CivilTime.floorMod(Int64(index), 12)) + 1
            let wall = CivilTime.daysFromCivil(year: y, month: m, day: 1) * TimeTicks.day
            let instant = zone.instant(wallMicros: wall)
            if instant > hi { break }
            if instant >= lo {
                out.append((Double(instant), step >= 12 ? String(y) : "\(TimeTicks.monthNames[m - 1]) \(y)"))
            }
            index += step
        }
        return out
    }

    func label(_ wall: Int64, span: Int64, oneDay: Bool) -> String {
        let t = LocalDateTime(wallMicros: wall)
        let date = "\(t.day) \(TimeTicks.monthNames[max(0, min(11, t.month - 1))])"
        if span >= TimeTicks.day { return date }
        var clock = TimeText.two(t.hour) + ":" + TimeText.two(t.minute)
        if span < TimeTicks.minute { clock += ":" + TimeText.two(t.second) }
        if !oneDay && t.hour == 0 && t.minute == 0 && t.second == 0 { return date }
        return clock
    }

    /// Text for a time key as a category or a caption: as short as its unit allows.
    static func describe(_ micros: Int64, zone: ZoneRules, unit: DisplayUnit, sameDay: Bool) -> String {
        if sameDay, [.minute, .hour, .second, .automatic].contains(unit) {
            let t = LocalDateTime(wallMicros: zone.wallMicros(micros))
            var s = TimeText.two(t.hour) + ":" + TimeText.two(t.minute)
            // The column's unit decides, so every label of a key has the same form.
            if unit == .second || unit == .automatic { s += ":" + TimeText.two(t.second) }
            return s
        }
        return TimeText.display(micros, zone: zone, unit: unit)
    }
}

extension LocalDateTime {
    /// The calendar day, for telling whether two times fall on the same date.
    var dateKey: Int { year * 10_000 + month * 100 + day }
}
