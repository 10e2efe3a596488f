/// `peak vehicles [on DATE]`: the most vehicles in service at once on a day, and when.
enum PeakVehiclesVerb {
    static let spec = VerbSpec(
        name: "peak", category: .transit,
        usage: "FEED | peak vehicles [on DATE]",
        summary: "The most vehicles running at once on a day, from when to when, and how many times the day reaches it.",
        details: """
        A vehicle is busy from its first departure to its last arrival. When every trip names its \
        block (block_id: the trips one vehicle runs in turn), a vehicle is a block, busy from its \
        first trip's departure to its last trip's arrival, gaps between its trips included. \
        Otherwise each trip counts as a vehicle of its own, so the peak is the most trips running \
        at once (a note says so). A vehicle that arrives when another leaves is not counted twice. \
        from and until are the first time of day the peak is reached; times_at_peak says how many \
        separate times it is. Without a date, the busiest day is taken and said.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | peak vehicles on 2007-06-05"],
        completes: .keyword(["vehicles"]), keywords: ["vehicles", "on"],
        parse: { p, _ in
            guard p.eatKeyword("vehicles") else {
                throw Diagnostic("expected vehicles after peak, as in: peak vehicles on 2007-06-04", at: p.current.span)
            }
            return Syntax(day: try ServiceDay.parseOptional(&p))
        })

    struct Syntax: FeedSyntax {
        static let verb = "peak vehicles on"
        var day: ServiceDay?

        var syntax: String { "vehicles" + (day.map { " on \($0.text)" } ?? "") }
        func whyNoRows(_ feed: FeedTables) -> [String] { ServiceVerb.whyNoService(feed, day) }

        func notes(_ feed: FeedTables) -> [String] {
            let how = TripTimes.hasBlocks(feed) ? [] :
                ["\(feed.name)'s trips do not all name a block (block_id), so each trip counts as a vehicle: this is the most trips running at once"]
            return ServiceDay.choiceNote(day, feed) + how + TripTimes.repeats(feed)
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> LogicalPlan {
            let text = PlanText(binder: binder, verb: Self.verb)
            var busy = try TripTimes.plan(feed, on: try ServiceDay.resolve(day, feed, verb: Self.verb), text)
            if TripTimes.hasBlocks(feed) {
                busy = try text.stages("min first_departure as first_departure, max last_arrival as last_arrival by block_id", on: busy)
            }
            let events = try UnionVerb.union([
                try text.stages("select time = first_departure, change = 1", on: busy),
                try text.stages("select time = last_arrival, change = -1", on: busy),
            ]) { _ in "the trips" }
            // Ends sort before starts at the same time; only the last event of a time tells how
            // many run from then on. Then keep the times the count reaches or leaves the peak.
            return try text.stages("""
                sort time, change | let running = running_sum(change) | let later = next(time) | \
                where later is null or later > time | let peak = max(running) | let at_peak = running = peak | \
                let was = prev(at_peak) | where was is null or was != at_peak | let until = next(time) | where at_peak | \
                count as times_at_peak, max running as vehicles, min time as from, min until as until | \
                where times_at_peak > 0 | select vehicles, from, until, times_at_peak
                """, on: events)
        }
    }
}
