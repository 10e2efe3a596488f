/// The registry of time buckets: one entry a bucket with its names, its help, how `fill`
/// steps between its values, and its SQL form. The parser, the binder, `fill`, `help`, the
/// docs and the database all read it.
public struct BucketSpec: Sendable {
    public let name: String
    public let aliases: [String]
    public let summary: String
    public let details: String
    public let examples: [String]
    /// The bucket a name stands for; nil for `every`, whose span is written after it.
    public let bucket: TimeBucket?
    /// How `fill` steps between its values, over times or over service times (durations);
    /// nil where it does not (weekday names).
    let fill: @Sendable (TimeBucket, DataType) -> FillStep?
    /// Its SQL over a time (timestamptz) in the table's zone (`SQLCall.zone`); buckets of
    /// service times (durations) have none.
    public let sql: SQLForm
    /// The names its SQL's numbers stand for (weekday 0 is Mon), where it gives codes.
    public let codes: [String]?

    init(_ name: String, aliases: [String] = [], bucket: TimeBucket?, summary: String, details: String = "", examples: [String],
         fill: @escaping @Sendable (TimeBucket, DataType) -> FillStep?, sql: SQLForm, codes: [String]? = nil) {
        self.name = name; self.aliases = aliases; self.bucket = bucket; self.summary = summary; self.details = details
        self.examples = examples; self.fill = fill; self.sql = sql; self.codes = codes
    }
}

public enum TimeBuckets {
    public static let all: [BucketSpec] = [
        BucketSpec("minute", bucket: .minute, summary: "The time cut to the minute.", examples: ["count by minute | limit 5"],
                   fill: { _, _ in .micros(CivilTime.microsPerMinute) }, sql: wallCut("date_trunc('minute', {local})", durations: floored(CivilTime.microsPerMinute))),
        BucketSpec("hour", bucket: .hour, summary: "The hour of the day, 0 to 23, in the table's time zone.",
                   details: "On GTFS service times (durations), hour 25 stays 25: a trip at 25:10 runs after midnight of the service day.",
                   examples: ["count by hour", "where hour >= 12 | count by legend"],
                   fill: { _, _ in .integer }, sql: local("extract(hour FROM {local})::int8", durations: floorDiv(CivilTime.microsPerHour))),
        BucketSpec("weekday", aliases: ["dow"], bucket: .weekday, summary: "Mon … Sun, sorted Monday first.", examples: ["count by weekday"],
                   fill: { _, _ in nil }, sql: local("(extract(isodow FROM {local})::int8 - 1)"), codes: CivilTime.weekdayNames),
        BucketSpec("day", aliases: ["date"], bucket: .day, summary: "The calendar date.", examples: ["count by day"],
                   fill: { _, input in input == .duration ? .integer : .micros(CivilTime.microsPerDay) },
                   sql: local("(date_trunc('day', {local}) AT TIME ZONE {zone})", durations: floorDiv(CivilTime.microsPerDay))),
        BucketSpec("week", bucket: .week, summary: "The ISO week, written 2017-W12; weeks start on Monday.", examples: ["count by week"],
                   fill: { _, _ in .micros(7 * CivilTime.microsPerDay) }, sql: local("(date_trunc('week', {local}) AT TIME ZONE {zone})")),
        BucketSpec("month", bucket: .month, summary: "The calendar month, written 2017-03.",
                   details: "month = \"March\" (or \"Mar\") means March of any year: the month of the year, as month_of_year.",
                   examples: ["count by month"], fill: { _, _ in .months(1) }, sql: local("(date_trunc('month', {local}) AT TIME ZONE {zone})")),
        BucketSpec("month_of_year", aliases: ["monthofyear"], bucket: .monthOfYear,
                   summary: "Jan … Dec, sorted January first: the month of the year, whatever the year.",
                   examples: ["count by month_of_year"], fill: { _, _ in nil },
                   sql: local("(extract(month FROM {local})::int8 - 1)"), codes: CivilTime.monthNames),
        BucketSpec("day_of_month", aliases: ["dayofmonth", "mday"], bucket: .dayOfMonth,
                   summary: "The day of the month, 1 to 31, in the table's time zone.",
                   examples: ["count by day_of_month", "where day_of_month(time) <= 7 | count"],
                   fill: { _, _ in .integer }, sql: local("extract(day FROM {local})::int8")),
        BucketSpec("day_of_year", aliases: ["dayofyear", "doy"], bucket: .dayOfYear,
                   summary: "The day of the year, 1 to 366 (1 January is 1).", examples: ["count by day_of_year"],
                   fill: { _, _ in .integer }, sql: local("extract(doy FROM {local})::int8")),
        BucketSpec("week_of_year", aliases: ["weekofyear", "isoweek", "week_number"], bucket: .weekOfYear,
                   summary: "The ISO week number, 1 to 53: weeks start on Monday, and week 1 holds the year's first Thursday.",
                   details: "1 January may be in week 52 or 53 of the year before, and 31 December in week 1 of the next: week gives the week with its year (2017-W12).",
                   examples: ["count by week_of_year"], fill: { _, _ in .integer }, sql: local("extract(week FROM {local})::int8")),
        BucketSpec("quarter", bucket: .quarter, summary: "The quarter of the year, 1 to 4 (January to March is 1).", examples: ["count by quarter"],
                   fill: { _, _ in .integer }, sql: local("extract(quarter FROM {local})::int8")),
        BucketSpec("year", bucket: .year, summary: "The year.", examples: ["count by year"],
                   fill: { _, _ in .integer }, sql: local("extract(year FROM {local})::int8")),
        BucketSpec("time_of_day", aliases: ["timeofday"], bucket: .timeOfDay,
                   summary: "The clock time of day, as a duration since midnight, in the table's time zone.",
                   details: "Compare it with \"HH:MM\" text: where time_of_day between \"07:00\" and \"09:30\".",
                   examples: ["where time_of_day between \"12:00\" and \"13:00\" | count"], fill: { _, _ in nil },
                   sql: local("(extract(epoch FROM ({local})::time) * 1000000)::int8", durations: "mod(mod({x}, \(CivilTime.microsPerDay)) + \(CivilTime.microsPerDay), \(CivilTime.microsPerDay))")),
        BucketSpec("every", bucket: nil, summary: "Fixed spans of time: every 15m, every 1h, every 1d.",
                   details: "Spans are aligned to midnight in the table's time zone. bucket(t, 15m) is the same as a function.",
                   examples: ["count by every 1m", "count by legend, every 2m | limit 6"],
                   fill: { b, _ in if case .every(let s) = b { return .micros(s) } else { return nil } },
                   sql: .build { c in
                       if c.types.first == .duration { return floored(c.step).replacingOccurrences(of: "{x}", with: c.arguments[0]) }
                       guard c.types.first == .timestamp else { return nil }
                       // Spans under a day start at each local midnight (every 7m: …, 23:55,
                       // then 00:00); longer ones at 1970-01-01.
                       if c.step < CivilTime.microsPerDay {
                           let midnight = "date_trunc('day', {local})"
                           let cut = "(\(midnight) + floor(extract(epoch FROM ({local} - \(midnight))) * 1000000 / \(c.step)) * \(c.step) * INTERVAL '1 microsecond')"
                           return filled(subDay(cut), c)
                       }
                       return filled("(date_bin(\(c.step) * INTERVAL '1 microsecond', {local}, TIMESTAMP '1970-01-01') AT TIME ZONE {zone})", c)
                   } otherwise: { _ in "every needs a time or a duration" }),
    ]

    /// The entry of a bucket.
    public static func spec(_ bucket: TimeBucket) -> BucketSpec {
        if case .every = bucket { return all.first { $0.bucket == nil }! }
        return all.first { $0.bucket == bucket }!
    }

    /// The names of the buckets a word can name alone (not `every`).
    public static var names: [String] { all.filter { $0.bucket != nil }.map(\.name) }

    /// The bucket a word names: a name or an alias, in any case.
    public static func named(_ word: String) -> TimeBucket? {
        let w = word.lowercased()
        return all.first { $0.name == w || $0.aliases.contains(w) }?.bucket
    }

    /// The instants `start ..< end` whose `bucket` is `value` (the instant a day, week or month
    /// starts, or a year's number), so a condition on the bucket can be sent as a range of the
    /// time itself: a range any index, partition or postgres_fdw shard can use. nil where the
    /// value does not start a bucket, or where a change of clock lies within hours of either
    /// end (a zone that turns its clocks back across midnight puts an hour of the next day in
    /// the day before; the bucket is computed as it is then).
    public static func period(_ bucket: TimeBucket, _ value: Int64, zone: ZoneRules) -> (start: Int64, end: Int64)? {
        let day = CivilTime.microsPerDay
        // Years 1 to 9999 and more, in microseconds.
        guard value > -10_000 * 366 * day, value < 10_000 * 366 * day else { return nil }
        let startWall: Int64, endWall: Int64
        switch bucket {
        case .year:
            guard (1...9998).contains(value) else { return nil }
            startWall = CivilTime.daysFromCivil(year: Int(value), month: 1, day: 1) * day
            endWall = CivilTime.daysFromCivil(year: Int(value) + 1, month: 1, day: 1) * day
        case .day, .week, .month:
            let wall = zone.wallMicros(value)
            startWall = Buckets.truncate(wall, bucket)
            guard zone.instant(wallMicros: startWall) == value else { return nil }
            switch bucket {
            case .day: endWall = startWall + day
            case .week: endWall = startWall + 7 * day
            default:
                let (y, m, _) = CivilTime.civilFromDays(CivilTime.floorDiv(startWall, day))
                endWall = CivilTime.daysFromCivil(year: m == 12 ? y + 1 : y, month: m == 12 ? 1 : m + 1, day: 1) * day
            }
        default:
            return nil
        }
        let start = zone.instant(wallMicros: startWall), end = zone.instant(wallMicros: endWall)
        let margin = 3 * CivilTime.microsPerHour
        for edge in [start, end] where zone.offsetSeconds(atMicros: edge - margin) != zone.offsetSeconds(atMicros: edge + margin) {
            return nil
        }
        return (start, end)
    }

    // MARK: SQL forms

    /// `{local}` is the time as wall-clock time in the zone, `{instant}` the time itself,
    /// `{zone}` the zone's name.
    static func filled(_ text: String, _ c: SQLCall) -> String {
        text.replacingOccurrences(of: "{local}", with: "(\(c.arguments[0]) AT TIME ZONE \(c.zone))")
            .replacingOccurrences(of: "{instant}", with: c.arguments[0]).replacingOccurrences(of: "{zone}", with: c.zone)
    }

    /// A bucket read off the wall-clock time of a time (timestamptz), and of a service time
    /// (a duration in microseconds, `{x}`) where it has one.
    static func local(_ text: String, durations: String? = nil) -> SQLForm {
        .build({ c in
            switch c.types.first {
            case .timestamp: return filled(text, c)
            case .duration: return durations?.replacingOccurrences(of: "{x}", with: c.arguments[0])
            default: return nil
            }
        }, otherwise: { c in c.types.first == .duration ? "this bucket of service times (durations) has no SQL form" : "this bucket needs a time" })
    }

    /// A bucket under a day cut at a wall-clock time (`cut`).
    static func wallCut(_ cut: String, durations: String? = nil) -> SQLForm {
        .build({ c in
            switch c.types.first {
            case .timestamp: return filled(subDay(cut), c)
            case .duration: return durations?.replacingOccurrences(of: "{x}", with: c.arguments[0])
            default: return nil
            }
        }, otherwise: { c in c.types.first == .duration ? "this bucket of service times (durations) has no SQL form" : "this bucket needs a time" })
    }

    /// A service time divided by a span, rounded down as utq does (hour 25 stays 25, and a
    /// time before midnight is hour -1): integer division, without the overflow of
    /// subtracting the remainder from the least bigint.
    static func floorDiv(_ span: Int64) -> String {
        "(CASE WHEN {x} >= 0 THEN {x} / \(span) ELSE -((-({x} + 1)) / \(span)) - 1 END)"
    }

    /// A service time cut down to a multiple of a span.
    static func floored(_ span: Int64) -> String { "(\(floorDiv(span)) * \(span))" }

    /// A bucket under a day as utq makes it: the row's instant moved back by as much wall time
    /// as it is past the bucket's start, so the hour that repeats when clocks go back is a
    /// bucket of its own; where that start does not exist at the row's offset, the instant of
    /// the start's wall time.
    static func subDay(_ cut: String) -> String {
        let start = "({instant} - ({local} - \(cut)))"
        return "(CASE WHEN (\(start) AT TIME ZONE {zone}) = \(cut) THEN \(start) ELSE (\(cut) AT TIME ZONE {zone}) END)"
    }
}
