/// A key column read for a chart: a label for each row, an order, and for numbers and
/// times a position on an axis. Time buckets keep their meaning: an hour key reads 08,
/// a minute key within one day 12:15, a weekday Mon … Sun in order.
struct KeyReader: Sendable {
    let column: Column
    let zone: ZoneRules
    /// All the key's times fall on one calendar day, so labels can leave the date out.
    let sameDay: Bool
    /// All of them fall in one year (days, weeks and months then leave the year out).
    let sameYear: Int?
    private let cells: CellFormat

    init(_ column: Column, zone: ZoneRules) {
        self.column = column
        self.zone = zone
        var day: Int? = nil, year: Int? = nil, sameDay = true, sameYear = true
        if case .timestamp(let a) = column.storage {
            for i in a.indices where column.isValid(i) {
                let t = LocalDateTime(wallMicros: zone.wallMicros(a[i]))
                let y = column.unit == .week ? CivilTime.isoWeek(days: CivilTime.floorDiv(zone.wallMicros(a[i]), CivilTime.microsPerDay)).year : t.year
                if day == nil { day = t.dateKey } else if day != t.dateKey { sameDay = false }
                if year == nil { year = y } else if year != y { sameYear = false }
                if !sameDay && !sameYear { break }
            }
        } else { sameDay = false; sameYear = false }
        self.sameDay = sameDay && day != nil
        self.sameYear = sameYear ? year : nil
        cells = CellFormat(column, zone: zone, nullText: "(none)", rows: Array(0..<column.count))
    }

    var name: String { column.name }

    /// Days, weeks and months of one year are labelled without it (3 Jan, W12, Mar).
    var shortCalendar: Bool { sameYear != nil && [.day, .week, .month].contains(cells.unit) && column.type == .timestamp }

    /// The name with what the labels leave out: "time on 2017-03-23", "week in 2024".
    var caption: String {
        if shortCalendar, let year = sameYear { return column.name + " in \(year)" }
        guard sameDay, case .timestamp(let a) = column.storage,
              let first = a.indices.first(where: { column.isValid($0) }) else { return column.name }
        return column.name + " on " + TimeText.display(a[first], zone: zone, unit: .day)
    }

    func label(_ row: Int) -> String {
        guard column.isValid(row) else { return "(none)" }
        switch column.storage {
        case .int(let a) where column.unit == .hour: return AxisTicks.hourLabel(Double(a[row]))
        case .timestamp(let a) where shortCalendar:
            let wall = zone.wallMicros(a[row])
            let t = LocalDateTime(wallMicros: wall)
            switch cells.unit {
            case .week: return "W" + TimeText.two(CivilTime.isoWeek(days: CivilTime.floorDiv(wall, CivilTime.microsPerDay)).week)
            case .month: return CivilTime.monthNames[t.month - 1]
            default: return "\(t.day) " + CivilTime.monthNames[t.month - 1]
            }
        case .timestamp(let a): return TimeTicks.describe(a[row], zone: zone, unit: cells.unit, sameDay: sameDay)
        case .string(let s): return s.dictionary[Int(s.codes[row])]
        default: return cells.text(row)
        }
    }

    /// Numbers and times sit on an axis; text does not.
    var isContinuous: Bool {
        switch column.type {
        case .int, .double, .timestamp, .duration: return true
        default: return false
        }
    }

    /// How much the key looks like time: the x axis of a line or a sparkline is the most
    /// time-like key (then a number, then the last key).
    var timeLikeness: Int {
        switch column.storage {
        case .timestamp, .duration: return 3
        case .int where column.unit == .hour || column.unit == .year: return 3
        case .string(let s) where s.ordered && s.dictionary == CivilTime.weekdayNames: return 2
        case .int, .double: return 1
        default: return 0
        }
    }

    /// A position on an axis (microseconds for a time), nil for text and nulls.
    func position(_ row: Int) -> Double? {
        guard column.isValid(row) else { return nil }
        switch column.storage {
        case .int(let a): return Double(a[row])
        case .double(let a): return a[row].isFinite ? a[row] : nil
        case .timestamp(let a), .duration(let a): return Double(a[row])
        default: return nil
        }
    }

    /// Sorting rank: positions for numbers and times, the declared order for ordered text,
    /// nil when the table's own order is the best one (plain text).
    func rank(_ row: Int) -> Double? {
        if let p = position(row) { return p }
        if case .string(let s) = column.storage, s.ordered, column.isValid(row) { return Double(s.codes[row]) }
        if case .bool(let a) = column.storage, column.isValid(row) { return a[row] ? 1 : 0 }
        return nil
    }

    func identity(_ row: Int) -> Value { column.value(at: row) }

    var axis: AxisTicks.Kind {
        switch column.storage {
        case .timestamp: return .time(zone, finest: cells.unit)
        case .int where column.unit == .hour: return .hour
        case .int where column.unit == .year: return .year
        case .duration: return .number(ValueFormat(kind: .duration, values: []))
        default: return .number(ValueFormat(kind: .number, values: column.doubles() ?? []))
        }
    }
}

/// The measured column: a Double per row (durations in seconds), nil for nulls and for
/// values that are not numbers (NaN, infinity), which a chart cannot place.
struct ValueReader: Sendable {
    let name: String
    let values: [Double?]
    let format: ValueFormat
    /// Rows whose value was NaN or infinite.
    let unplottable: Int

    init(_ column: Column) {
        name = column.name
        let raw = column.doubles() ?? []
        var out: [Double?] = []
        out.reserveCapacity(raw.count)
        var bad = 0
        for (i, v) in raw.enumerated() {
            if !column.isValid(i) { out.append(nil) } else if !v.isFinite { out.append(nil); bad += 1 } else { out.append(v) }
        }
        values = out
        unplottable = bad
        format = ValueFormat(kind: column.type == .duration ? .duration : .number, values: out.compactMap { $0 })
    }

    static func measurable(_ c: Column) -> Bool { c.type == .int || c.type == .double || c.type == .duration }
}

/// Values by category and series: the shape bar, column, line, spark and heatmap draw.
/// One key gives one series named after the value; two keys give a series per value of
/// the second. Cells are nil where the table has no row.
struct CrossTable: Sendable {
    struct Category: Sendable {
        var label: String
        /// Position on a continuous axis (numbers, times), when the key has one.
        var position: Double?
    }
    var categories: [Category]
    var series: [String]
    var cells: [[Double?]]
    /// Axis captions: the category key, the series key (if any) and the value.
    var categoryName: String
    var seriesName: String?
    var valueName: String
    var format: ValueFormat
    /// How to tick the category axis when its keys are numbers or times.
    var axis: AxisTicks.Kind?
    var notes: [String] = []

    func total(_ c: Int) -> Double { cells[c].reduce(0) { $0 + ($1 ?? 0) } }

    /// The smallest and largest value of any cell (and of stacked totals when asked).
    func extent(stacked: Bool) -> (Double, Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for row in cells {
            if stacked && series.count > 1 {
                let pos = row.reduce(0) { $0 + max(0, $1 ?? 0) }, neg = row.reduce(0) { $0 + min(0, $1 ?? 0) }
                if row.contains(where: { $0 != nil }) { lo = min(lo, neg); hi = max(hi, pos) }
            } else {
                for v in row { if let v { lo = min(lo, v); hi = max(hi, v) } }
            }
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// Keeps the `n` categories with the largest totals, in their order, and adds the
    /// others up as one category, "other".
    mutating func keepTop(_ n: Int, reason: String) {
        guard categories.count > n, n >= 1 else { return }
        let ranked = categories.indices.sorted { total($0) > total($1) || (total($0) == total($1) && $0 < $1) }
        let kept = Set(ranked.prefix(n))
        var other = [Double?](repeating: nil, count: series.count)
        var dropped = 0
        for c in categories.indices where !kept.contains(c) {
            dropped += 1
            for s in series.indices { if let v = cells[c][s] { other[s] = (other[s] ?? 0) + v } }
        }
        let order = categories.indices.filter { kept.contains($0) }
        categories = order.map { categories[$0] } + [Category(label: "other", position: nil)]
        cells = order.map { cells[$0] } + [other]
        axis = nil
        notes.append("other: the \(dropped) smaller \(categoryName) values added up" + reason)
    }
}

/// "1 value", "3 values", "1 entry", "12 entries": counts in notes read as English.
enum Counted {
    static func text(_ n: Int, _ plural: String) -> String {
        NumberText.grouped(n) + " " + (n == 1 ? singular(plural) : plural)
    }

    static func singular(_ plural: String) -> String {
        if plural.hasSuffix("ies") { return String(plural.dropLast(3)) + "y" }
        if plural.hasSuffix("s") { return String(plural.dropLast()) }
        return plural
    }
}
