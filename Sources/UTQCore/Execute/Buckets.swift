/// Time buckets over whole columns, in a zone. The wall clock of each instant comes from
/// the zone's transition list (one comparison per row while rows stay in one DST period).
enum Buckets {
    static let weekdayDictionary = CivilTime.weekdayNames

    static func apply(_ bucket: TimeBucket, _ v: Vector, zone: ZoneRules, _ n: Int) throws -> Vector {
        let c: Column
        switch v {
        case .column(let col): c = col
        case .constant(let value, let t):
            let single = try apply(bucket, .column(Column.constant(value, type: t, count: 1)), zone: zone, 1)
            if case .column(let one) = single { return .constant(one.value(at: 0), one.type) }
            return single
        }
        switch c.storage {
        case .timestamp(let a): return .column(timestamps(bucket, a, c.validity, zone))
        case .duration(let a): return .column(try durations(bucket, a, c.validity))
        case .null(let count):
            return .column(Column.constant(.null, type: bucket.resultType(for: .timestamp), count: count))
        default:
            throw Diagnostic("\(bucket.name) needs a time column, but this is \(c.type.displayName)")
        }
    }

    static func timestamps(_ bucket: TimeBucket, _ a: [Int64], _ validity: Bitmap?, _ zone: ZoneRules) -> Column {
        let n = a.count
        var cursor = zone.makeCursor()
        let day = CivilTime.microsPerDay
        switch bucket {
        case .hour:
            var out = [Int64](repeating: 0, count: n)
            a.withUnsafeBufferPointer { p in
                for i in 0..<n {
                    let wall = cursor.wall(p[i])
                    out[i] = CivilTime.floorMod(wall, day) / CivilTime.microsPerHour
                }
            }
            return Column(name: "", storage: .int(out), validity: validity, unit: .hour)
        case .weekday:
            var codes = [UInt32](repeating: 0, count: n)
            for i in 0..<n {
                let days = CivilTime.floorDiv(cursor.wall(a[i]), day)
                codes[i] = UInt32(CivilTime.isoWeekday(days: days) - 1)
            }
            return Column(name: "", storage: .string(StringStorage(codes: codes, dictionary: weekdayDictionary, ordered: true)), validity: validity)
        case .year:
            var out = [Int64](repeating: 0, count: n)
            var lastDays = Int64.min, lastYear: Int64 = 0
            for i in 0..<n {
                let days = CivilTime.floorDiv(cursor.wall(a[i]), day)
                if days != lastDays { lastDays = days; lastYear = Int64(CivilTime.civilFromDays(days).year) }
                out[i] = lastYear
            }
            return Column(name: "", storage: .int(out), validity: validity, unit: .year)
        case .dayOfMonth, .dayOfYear, .weekOfYear, .quarter:
            var out = [Int64](repeating: 0, count: n)
            var lastDays = Int64.min, last: Int64 = 0
            for i in 0..<n where validity?[i] ?? true {
                let days = CivilTime.floorDiv(cursor.wall(a[i]), day)
                if days != lastDays { lastDays = days; last = calendarPart(bucket, days: days) }
                out[i] = last
            }
            return Column(name: "", storage: .int(out), validity: validity)
        case .monthOfYear:
            var codes = [UInt32](repeating: 0, count: n)
            for i in 0..<n where validity?[i] ?? true {
                codes[i] = UInt32(CivilTime.civilFromDays(CivilTime.floorDiv(cursor.wall(a[i]), day)).month - 1)
            }
            return Column(name: "", storage: .string(StringStorage(codes: codes, dictionary: CivilTime.monthNames, ordered: true)), validity: validity)
        case .timeOfDay:
            var out = [Int64](repeating: 0, count: n)
            for i in 0..<n { out[i] = CivilTime.floorMod(cursor.wall(a[i]), day) }
            return Column(name: "", storage: .duration(out), validity: validity, unit: .clock)
        case .minute, .every, .day, .week, .month:
            // Truncate the wall time, then find the instant of that wall time. Rows of one
            // bucket share the answer, so remember the last one.
            var out = [Int64](repeating: 0, count: n)
            var lastWall = Int64.min, lastInstant: Int64 = 0
            // Spans under a day start at the same offset as the row when that start exists, so
            // the hour that repeats when clocks go back is a bucket of its own, not merged
            // into the first pass of that wall-clock hour.
            var subDay = false
            if case .minute = bucket { subDay = true } else if case .every(let step) = bucket { subDay = step < day }
            var check = zone.makeCursor()
            for i in 0..<n {
                let wall = cursor.wall(a[i])
                let cut = truncate(wall, bucket)
                if subDay {
                    let start = a[i] - (wall - cut)
                    if check.wall(start) == cut { out[i] = start; continue }
                }
                if cut != lastWall { lastWall = cut; lastInstant = zone.instant(wallMicros: cut) }
                out[i] = lastInstant
            }
            return Column(name: "", storage: .timestamp(out), validity: validity, unit: bucket.unit(for: .timestamp))
        }
    }

    /// A calendar part of a day (days since 1970-01-01).
    static func calendarPart(_ bucket: TimeBucket, days: Int64) -> Int64 {
        let (y, m, d) = CivilTime.civilFromDays(days)
        switch bucket {
        case .dayOfMonth: return Int64(d)
        case .dayOfYear: return days - CivilTime.daysFromCivil(year: y, month: 1, day: 1) + 1
        case .quarter: return Int64((m - 1) / 3 + 1)
        case .weekOfYear:
            // The ISO week is the week of its Thursday: count the Thursdays of that year.
            let thursday = days - Int64(CivilTime.isoWeekday(days: days) - 1) + 3
            let year = CivilTime.civilFromDays(thursday).year
            return (thursday - CivilTime.daysFromCivil(year: year, month: 1, day: 1)) / 7 + 1
        default: return 0
        }
    }

    /// The start of the bucket holding a wall-clock time.
    @inline(__always)
    static func truncate(_ wall: Int64, _ bucket: TimeBucket) -> Int64 {
        let day = CivilTime.microsPerDay
        switch bucket {
        case .minute: return CivilTime.floorDiv(wall, CivilTime.microsPerMinute) * CivilTime.microsPerMinute
        case .every(let step):
            // Spans under a day start at midnight (every 7m: 00:00, 00:07, …, 23:55, then 00:00).
            if step < day {
                let midnight = CivilTime.floorDiv(wall, day) * day
                return midnight + CivilTime.floorDiv(wall - midnight, step) * step
            }
            return CivilTime.floorDiv(wall, step) * step
        case .day: return CivilTime.floorDiv(wall, day) * day
        case .week: return CivilTime.weekStart(days: CivilTime.floorDiv(wall, day)) * day
        case .month:
            let (y, m, _) = CivilTime.civilFromDays(CivilTime.floorDiv(wall, day))
            return CivilTime.daysFromCivil(year: y, month: m, day: 1) * day
        default: return wall
        }
    }

    /// Each duration cut down to a multiple of the step; one so far below zero that its
    /// bucket has no duration is out of range.
    static func floored(_ a: [Int64], _ step: Int64, _ validity: Bitmap?) throws -> [Int64] {
        var out = [Int64](repeating: 0, count: a.count)
        for i in 0..<a.count {
            if let r = Checked.subtract(a[i], CivilTime.floorMod(a[i], step)) { out[i] = r }
            else if validity?[i] ?? true { throw ValueOutOfRange(kind: .duration, row: i) }
        }
        return out
    }

    /// Buckets of durations (GTFS service times, clock columns): hour 25 stays 25.
    static func durations(_ bucket: TimeBucket, _ a: [Int64], _ validity: Bitmap?) throws -> Column {
        switch bucket {
        case .hour:
            return Column(name: "", storage: .int(a.map { CivilTime.floorDiv($0, CivilTime.microsPerHour) }), validity: validity, unit: .hour)
        case .minute:
            return Column(name: "", storage: .duration(try floored(a, CivilTime.microsPerMinute, validity)), validity: validity, unit: .clock)
        case .every(let step):
            return Column(name: "", storage: .duration(try floored(a, step, validity)), validity: validity, unit: .clock)
        case .timeOfDay:
            return Column(name: "", storage: .duration(a.map { CivilTime.floorMod($0, CivilTime.microsPerDay) }), validity: validity, unit: .clock)
        case .day:
            return Column(name: "", storage: .int(a.map { CivilTime.floorDiv($0, CivilTime.microsPerDay) }), validity: validity)
        default:
            throw Diagnostic("a duration has no \(bucket.name); \(bucket.name) needs a timestamp column")
        }
    }
}
