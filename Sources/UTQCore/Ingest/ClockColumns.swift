/// Dates and clock times kept in columns of their own, as survey exports write them
/// (`Date` 20180802, `Start_time` 0820 or `8:20 PM`): read as dates and clock times where the
/// header or the values say so, and joined into the table's time when there is a date and a
/// start time but no time column.
enum ClockColumns {
    /// A header that names a clock time (`Start_time`, `end time`, `time`, `Departure`).
    static func namesClock(_ name: String) -> Bool {
        let n = name.lowercased().replacingOccurrences(of: " ", with: "_")
        if n.contains("duration") || n.contains("travel") || n.contains("elapsed") || n.contains("zone") { return false }
        return n == "time" || n.hasSuffix("_time") || n.hasPrefix("time_") || n.hasSuffix("time") && n.count <= 12
            || ["start", "end", "begin", "clock", "departure", "arrival"].contains(n)
    }

    static func namesDate(_ name: String) -> Bool {
        let n = name.lowercased()
        return n == "date" || n.hasSuffix("_date") || n.hasPrefix("date_") || n.hasSuffix(" date")
    }

    static func namesStart(_ name: String) -> Bool {
        let n = name.lowercased()
        return n.hasPrefix("start") || n.hasPrefix("begin") || n == "time" || n.hasPrefix("from")
    }

    /// The table with clock and date columns read, and the notes that say what was done.
    static func recognise(_ table: Table, path: String) -> (Table, [LoadWarning]) {
        var t = table
        var notes: [LoadWarning] = []
        var clocks: [String] = []
        var dates: [String] = []
        for (k, c) in t.columns.enumerated() {
            if let clock = clockColumn(c) {
                t.columns[k] = clock
                clocks.append(c.name)
            } else if c.type == .duration, c.unit == .clock, namesClock(c.name) {
                clocks.append(c.name)
            } else if let date = dateColumn(c, zone: t.zone) {
                t.columns[k] = date
                dates.append(c.name)
            } else if c.type == .timestamp, c.unit == .day {
                dates.append(c.name)
            }
        }
        let newlyRead = t.columns.enumerated().filter { k, c in table.columns[k].type != c.type }.map(\.element.name)
        if !newlyRead.isEmpty {
            let what = newlyRead.map { n in "\(n) (\(t.column(n)!.type == .duration ? "clock times" : "dates"))" }
            notes.append(LoadWarning(path: path, "read as \(what.joined(separator: ", ")) from their text"))
        }
        // A date and a clock time, and no time yet: the start of each row is the table's time.
        let hasTime = t.columns.contains { $0.type == .timestamp && $0.unit != .day }
        if !hasTime, dates.count == 1, let clock = clocks.first(where: namesStart) ?? (clocks.count == 1 ? clocks.first : nil),
           t.column("time") == nil, let date = t.column(dates[0]), let start = t.column(clock),
           case .timestamp(let days) = date.storage, case .duration(let since) = start.storage {
            var values = [Int64](repeating: 0, count: t.rowCount)
            var valid = Bitmap(count: t.rowCount, value: true)
            for row in 0..<t.rowCount {
                guard date.isValid(row), start.isValid(row) else { valid[row] = false; continue }
                let wallDay = CivilTime.floorDiv(t.zone.wallMicros(days[row]), CivilTime.microsPerDay) * CivilTime.microsPerDay
                values[row] = t.zone.instant(wallMicros: wallDay + since[row])
            }
            var time = Column(name: "time", storage: .timestamp(values), validity: valid)
            time.floating = true
            t.columns.append(time)
            t.timeColumn = "time"
            notes.append(LoadWarning(path: path, "time is \(dates[0]) + \(clock), wall-clock times in \(t.zone.identifier): the table's time, for hour, day and the other buckets"))
        }
        if t.timeColumn == nil { t.timeColumn = t.columns.first(where: { $0.type == .timestamp })?.name }
        return (t, notes)
    }

    /// Text that is all clock times (`0820`, `8:20 PM`, `12:05am`) as a clock column: digits
    /// alone (`0820`) only under a header that names a time, since they may be codes.
    static func clockColumn(_ c: Column) -> Column? {
        guard case .string(let s) = c.storage, s.dictionary.count <= 100_000 else { return nil }
        var parsed = [Int64?](repeating: nil, count: s.dictionary.count)
        var any = false, colonOrMeridiem = false
        for (k, v) in s.dictionary.enumerated() where !v.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let m = ClockText.parse(v) else { return nil }
            parsed[k] = m
            any = true
            if v.contains(":") || v.lowercased().hasSuffix("m") { colonOrMeridiem = true }
        }
        guard any, colonOrMeridiem || namesClock(c.name) else { return nil }
        var values = [Int64](repeating: 0, count: s.codes.count)
        var valid = Bitmap(count: s.codes.count, value: true)
        for (row, code) in s.codes.enumerated() {
            if c.isValid(row), let m = parsed[Int(code)] { values[row] = m } else { valid[row] = false }
        }
        return Column(name: c.name, storage: .duration(values), validity: valid, unit: .clock)
    }

    /// Whole numbers written yyyymmdd (20180802) under a header that names a date, as dates.
    static func dateColumn(_ c: Column, zone: ZoneRules) -> Column? {
        guard namesDate(c.name) else { return nil }
        var days: [Int64]
        switch c.storage {
        case .int(let v):
            days = []
            days.reserveCapacity(v.count)
            for (row, x) in v.enumerated() {
                guard c.isValid(row) else { days.append(0); continue }
                guard let d = day(x) else { return nil }
                days.append(d)
            }
        default: return nil
        }
        let micros = days.map { zone.instant(wallMicros: $0 * CivilTime.microsPerDay) }
        var out = Column(name: c.name, storage: .timestamp(micros), validity: c.validity, unit: .day)
        out.floating = true
        return out
    }

    /// 20180802 as days since 1970-01-01; nil when it is no such date.
    static func day(_ x: Int64) -> Int64? {
        guard x >= 1000_01_01, x <= 9999_12_31 else { return nil }
        let y = Int(x / 10000), m = Int(x / 100 % 100), d = Int(x % 100)
        guard (1...12).contains(m), d >= 1, d <= CivilTime.daysInMonth(year: y, month: m) else { return nil }
        return CivilTime.daysFromCivil(year: y, month: m, day: d)
    }
}
