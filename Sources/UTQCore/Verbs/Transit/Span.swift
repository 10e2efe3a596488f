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
        parse: { p, _ in Syntax(day: try ServiceDay.parseOptional(&p), keys: try TripTimes.parseKeys(&p)) })

    struct Syntax: FeedSyntax {
        static let verb = "span on"
        var day: ServiceDay?
        var keys: [String]

        var syntax: String { TripTimes.syntax(day, keys) }
        func whyNoRows(_ feed: FeedTables) -> [String] { ServiceVerb.whyNoService(feed, day) }
        func notes(_ feed: FeedTables) -> [String] { ServiceDay.choiceNote(day, feed) + TripTimes.repeats(feed) }

        func bind(feed: FeedTables, _ binder: Binder) throws -> LogicalPlan {
            let text = PlanText(binder: binder, verb: Self.verb)
            let trips = try TripTimes.plan(feed, on: try ServiceDay.resolve(day, feed, verb: Self.verb), text)
            let by = TripTimes.by(keys)
            return try text.stages("""
                count as trips, min first_departure as first_departure, max first_departure as last_departure, \
                max last_arrival as last_arrival\(by) | let span = last_arrival - first_departure\(keys.isEmpty ? "" : " | sort" + by.dropFirst(3))
                """, on: trips)
        }
    }
}
