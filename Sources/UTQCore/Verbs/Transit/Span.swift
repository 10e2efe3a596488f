/// `span [on DATE] [by KEYS]`: how long the day of service is, from the first trip's departure
/// to the last trip's arrival.
enum SpanVerb {
    static let spec = VerbSpec(
        name: "span", category: .transit,
        usage: "FEED | span [on DATE] [by KEY, …]",
        summary: "The service span of a day: trips, first departure, last departure and last arrival, by keys (route_id, say).",
        details: """
        The trips of the day are those of `service on DATE`. A trip leaves at its first departure \
        time and arrives at its last arrival time (a stop without an arrival time counts its \
        departure). first_departure is the earliest trip's, last_departure the latest trip's start, \
        last_arrival the latest end, and span runs from first_departure to last_arrival. Times past \
        24:00 are the day's service after midnight and stay as written, so a span can pass 24 hours \
        of clock. Without a date, the busiest day is taken and said.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | span on 2007-06-05 by route_id"],
        completes: .column, keywords: ["on", "by"],
        parse: { p, verb in Syntax(day: try ServiceDay.parseOptional(&p), keys: try TripTimes.parseKeys(&p), span: verb.span) })

    struct Syntax: FeedSyntax {
        static let verb = "span on"
        var day: ServiceDay?
        var keys: [KeyName]
        var span: SourceSpan

        var syntax: String { TripTimes.syntax(day, keys) }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let build = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: build)
            let repeats = try probes.repeatsNote()
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            let trips = try TripTimes.plan(feed, on: day, build)
            let first = build.column("first_departure"), last = build.column("last_arrival")
            let summary = try build.summarize(trips, [(.count, nil, as: "trips"), (.min, first, as: "first_departure"),
                                                      (.max, first, as: "last_departure"), (.max, last, as: "last_arrival")],
                                              by: keys.map(\.groupKey))
            var plan = try build.derive(summary, [("span", last.minus(first))])
            if !keys.isEmpty { plan = try build.sort(plan, keys.map(\.expr)) }
            return FeedPlan(plan: plan, notes: try probes.whyNone(day) + probes.choiceNote(day) + repeats)
        }
    }
}
