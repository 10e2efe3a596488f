/// `service on DATE`: the trips of a GTFS feed that run on a day, with why each runs.
enum ServiceVerb {
    static let spec = VerbSpec(
        name: "service", category: .transit,
        usage: "FEED | service [on DATE]",
        summary: "The trips a GTFS feed runs on a day: calendar days and dates, plus calendar_dates additions, minus removals.",
        details: """
        A trip runs when its service_id runs: calendar.txt says on which weekdays between \
        start_date and end_date, and calendar_dates.txt adds a service on a date (exception_type 1) \
        or takes it away (2). Feeds with only calendar_dates.txt work the same. Each trip comes \
        with its route, its service_id and why it runs that day. Without a date, the feed's busiest \
        day is taken (the one with the most trips), and said. explain shows the steps.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | service on 2007-06-05 | count by route_id",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | service on 2007-06-09 | count by why"],
        completes: .keyword(["on"]), keywords: ["on"],
        parse: { p, _ in
            Syntax(day: try ServiceDay.parseOptional(&p))
        })

    struct Syntax: FeedSyntax {
        static let verb = "service on"
        var day: ServiceDay?

        var syntax: String { day.map { "on \($0.text)" } ?? "" }

        func bind(feed: FeedTables, _ binder: Binder) throws -> LogicalPlan {
            let text = PlanText(binder: binder, verb: Self.verb)
            let day = try ServiceDay.resolve(day, feed, verb: Self.verb)
            return try text.stages("sort route_id, trip_id", on: try ServiceVerb.trips(feed, on: day, text))
        }

        func whyNoRows(_ feed: FeedTables) -> [String] { ServiceVerb.whyNoService(feed, day) }
        func notes(_ feed: FeedTables) -> [String] { ServiceDay.choiceNote(day, feed) }
    }

    /// Why no service runs on a day, when none does: the calendar's services take that day off,
    /// or none runs on that weekday and calendar_dates adds none.
    static func whyNoService(_ feed: FeedTables, _ day: ServiceDay?) -> [String] {
        guard let day = try? ServiceDay.resolve(day, feed, verb: verb) else { return [] }
        return whyNoService(feed, day).map { [$0] } ?? []
    }

    static let verb = "service on"

    static func whyNoService(_ feed: FeedTables, _ day: ServiceDay) -> String? {
        func rows(_ file: String) -> [[String: Value]] {
            guard let t = feed.table(file) else { return [] }
            return (0..<t.rowCount).map { i in Dictionary(t.columns.map { ($0.name, $0.value(at: i)) }, uniquingKeysWith: { a, _ in a }) }
        }
        func dayOf(_ v: Value?, _ zone: ZoneRules) -> Int64? {
            if case .timestamp(let m)? = v { return CivilTime.floorDiv(zone.wallMicros(m), CivilTime.microsPerDay) }
            return nil
        }
        guard let zone = (feed.table("calendar") ?? feed.table("calendar_dates"))?.zone else { return nil }
        var byCalendar: [String] = []
        for r in rows("calendar") {
            guard let from = dayOf(r["start_date"], zone), let to = dayOf(r["end_date"], zone), (from...to).contains(day.days),
                  case .int(1)? = r[day.weekdayColumn], let id = r["service_id"]?.plainText else { continue }
            byCalendar.append(id)
        }
        var added: [String] = [], removed: [String] = []
        for r in rows("calendar_dates") where dayOf(r["date"], zone) == day.days {
            guard let id = r["service_id"]?.plainText else { continue }
            if case .int(1)? = r["exception_type"] { added.append(id) }
            if case .int(2)? = r["exception_type"] { removed.append(id) }
        }
        let running = Set(byCalendar + added).subtracting(removed)
        guard running.isEmpty else { return nil }
        let when = "\(day.weekdayName) \(day.text)"
        if !byCalendar.isEmpty {
            return "no trips run on \(when): calendar_dates takes \(byCalendar.sorted().joined(separator: ", ")) away that day"
        }
        return "no trips run on \(when): no service of the calendar runs on \(day.weekdayName)s then, and calendar_dates adds none"
    }

    /// The trips running on a day, with the columns of trips.txt and `why`.
    static func trips(_ feed: FeedTables, on day: ServiceDay, _ text: PlanText) throws -> LogicalPlan {
        try checkInRange(feed, day)
        let d = day.text
        var running: [LogicalPlan] = []
        if feed.has("calendar") {
            running.append(try text.pipeline(
                "\(feed.ref("calendar")) | where start_date <= \"\(d)\" and end_date >= \"\(d)\" and \(day.weekdayColumn) = 1 | select service_id, why = \"runs on \(day.weekdayName)s (calendar)\""))
        }
        let dates = feed.has("calendar_dates")
        if dates {
            running.append(try text.pipeline(
                "\(feed.ref("calendar_dates")) | where date = \"\(d)\" and exception_type = 1 | select service_id, why = \"added on \(d) (calendar_dates)\""))
        }
        guard !running.isEmpty else {
            throw Diagnostic("\(feed.name) has neither calendar.txt nor calendar_dates.txt, so no day of service can be told")
        }
        // A service both in the calendar and added that day runs once.
        var services = running.count == 1 ? running[0]
            : try text.stages("min why by service_id | select service_id, why = min_why", on: try UnionVerb.union(running) { _ in "the calendar" })
        if dates {
            let removed = try text.pipeline(
                "\(feed.ref("calendar_dates")) | where date = \"\(d)\" and exception_type = 2 | select service_id, removed = true")
            services = try text.stages("where removed is null | select service_id, why",
                                       on: try text.join(services, removed, named: "removed", .left, on: "service_id"))
        }
        return try text.join(try text.pipeline(feed.ref("trips")), services, named: "service", on: "service_id")
    }

    /// A day outside every date the feed's calendar names is a mistake worth a message, with the range.
    static func checkInRange(_ feed: FeedTables, _ day: ServiceDay) throws {
        var first = Int64.max, last = Int64.min
        func take(_ file: String, _ column: String) {
            guard let t = feed.table(file), let c = t.column(column) else { return }
            for i in 0..<t.rowCount where c.isValid(i) {
                let days: Int64
                switch c.storage {
                case .timestamp(let v): days = CivilTime.floorDiv(t.zone.wallMicros(v[i]), CivilTime.microsPerDay)
                default: continue
                }
                first = min(first, days); last = max(last, days)
            }
        }
        take("calendar", "start_date"); take("calendar", "end_date"); take("calendar_dates", "date")
        guard first <= last, day.days < first || day.days > last else { return }
        let from = ServiceDay(days: first, span: day.span).text, to = ServiceDay(days: last, span: day.span).text
        throw Diagnostic("\(day.text) is outside \(feed.name)'s calendar, which runs from \(from) to \(to)", at: day.span,
                         hint: "pick a day from \(from) to \(to)")
    }
}
