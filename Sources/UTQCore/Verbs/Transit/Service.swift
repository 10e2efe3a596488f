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
        parse: { p, verb in
            Syntax(day: try ServiceDay.parseOptional(&p), span: verb.span)
        })

    struct Syntax: FeedSyntax {
        static let verb = ServiceVerb.verb
        var day: ServiceDay?
        var span: SourceSpan

        var syntax: String { day.map { "on \($0.text)" } ?? "" }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let build = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: build)
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            let trips = try build.sort(try ServiceVerb.trips(feed, on: day, build), [build.column("route_id"), build.column("trip_id")])
            return FeedPlan(plan: trips, notes: try probes.whyNone(day) + probes.choiceNote(day))
        }
    }

    static let verb = "service on"

    /// The trips running on a day, with the columns of trips.txt and `why`.
    static func trips(_ feed: FeedTables, on day: ServiceDay, _ b: PlanBuilder) throws -> LogicalPlan {
        try feed.require("trips", ["trip_id", "service_id"], b, verb: verb)
        try feed.require("calendar", ["service_id", "start_date", "end_date", day.weekdayColumn], b, verb: verb)
        try feed.require("calendar_dates", ["service_id", "date", "exception_type"], b, verb: verb)
        let d = b.text(day.text)
        var running: [LogicalPlan] = []
        if feed.has("calendar") {
            let runs = b.column("start_date").compared(.lessEqual, d).and(b.column("end_date").compared(.greaterEqual, d))
                .and(b.column(day.weekdayColumn).compared(.equal, b.int(1)))
            running.append(try b.select(try b.filter(try feed.scan("calendar", b), runs),
                                        [(nil, b.column("service_id")), ("why", b.text("runs on \(day.weekdayName)s (calendar)"))]))
        }
        let dates = feed.has("calendar_dates")
        func exceptions(_ type: Int64) throws -> LogicalPlan {
            try b.filter(try feed.scan("calendar_dates", b), b.column("date").compared(.equal, d).and(b.column("exception_type").compared(.equal, b.int(type))))
        }
        if dates {
            running.append(try b.select(try exceptions(1), [(nil, b.column("service_id")), ("why", b.text("added on \(day.text) (calendar_dates)"))]))
        }
        guard !running.isEmpty else {
            throw Diagnostic("\(feed.name) has neither calendar.txt nor calendar_dates.txt, so no day of service can be told", at: b.span)
        }
        // A service both in the calendar and added that day runs once.
        var services = running[0]
        if running.count > 1 {
            services = try b.summarize(try b.union(running) { _ in "the calendar" }, [(.min, b.column("why"), as: "why")], by: [b.key("service_id")])
        }
        if dates {
            let removed = try b.select(try exceptions(2), [(nil, b.column("service_id")), ("removed", b.bool(true))])
            let kept = try b.filter(try b.join(services, removed, named: "removed", .left, on: [b.column("service_id")]), b.column("removed").isNull)
            services = try b.select(kept, columns: ["service_id", "why"])
        }
        return try b.join(try feed.scan("trips", b), services, named: "service", on: [b.column("service_id")])
    }
}
