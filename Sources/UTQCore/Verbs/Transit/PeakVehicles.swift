/// `peak vehicles [on DATE]`: the most vehicles in service at once on a day, and when.
enum PeakVehiclesVerb {
    static let spec = VerbSpec(
        name: "peak", category: .transit,
        usage: "FEED | peak vehicles [on DATE]",
        summary: "The most vehicles running at once on a day, from when to when, and how many times the day reaches it.",
        details: """
        A vehicle is busy from its first departure to its last arrival. When every trip names its \
        block (block_id: the trips one vehicle runs in turn), a vehicle is a block, busy from its \
        first trip's departure to its last trip's arrival, gaps between its trips included; each \
        run of a trip frequencies.txt repeats is a vehicle of its own. Otherwise each trip counts as a vehicle of its own, so the peak is the most trips running \
        at once (a note says so). A vehicle that arrives when another leaves is not counted twice. \
        from and until are the first time of day the peak is reached; times_at_peak says how many \
        separate times it is. Without a date, the busiest day is taken and said.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | peak vehicles on 2007-06-05"],
        completes: .keyword(["vehicles"]), keywords: ["vehicles", "on"],
        parse: { p, verb in
            guard p.eatKeyword("vehicles") else {
                throw Diagnostic("expected vehicles after peak, as in: peak vehicles on 2007-06-04", at: p.current.span)
            }
            return Syntax(day: try ServiceDay.parseOptional(&p), span: verb.span)
        })

    struct Syntax: FeedSyntax {
        static let verb = "peak vehicles on"
        var day: ServiceDay?
        var span: SourceSpan

        var syntax: String { "vehicles" + (day.map { " on \($0.text)" } ?? "") }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let b = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: b)
            // Everything the plan and its notes need is asked in one round of probes.
            let (named, repeats) = (try probes.everyTripNamesItsBlock(), try probes.repeatsNote())
            guard let day = try probes.day(day, verb: Self.verb), let blocks = named else {
                return probes.pending(Self.verb, day: day)
            }
            var busy = try TripTimes.plan(feed, on: day, b)
            let first = b.column("first_departure"), last = b.column("last_arrival")
            if blocks {
                // The runs of a trip frequencies.txt repeats overlap when its headway is shorter
                // than the trip: each is a vehicle of its own, whatever its block says.
                let run = b.column("run")
                let vehicle = b.call("if", run.isNull, b.column("block_id"), b.call("concat", b.column("block_id"), b.text(" "), b.column("trip_id"), b.text(" "), b.call("text", run)))
                busy = try b.summarize(try b.derive(busy, [("vehicle", vehicle)]), [(.min, first, as: "first_departure"), (.max, last, as: "last_arrival")],
                                       by: [b.key("vehicle")])
            }
            let events = try b.union([
                try b.select(busy, [("time", first), ("change", b.int(1))]),
                try b.select(busy, [("time", last), ("change", b.int(-1))]),
            ]) { _ in "the trips" }
            // Ends sort before starts at the same time; only the last event of a time tells how
            // many run from then on. Then keep the times the count reaches or leaves the peak.
            let time = b.column("time"), running = b.column("running"), atPeak = b.column("at_peak")
            var plan = try b.sort(events, [time, b.column("change")])
            plan = try b.derive(plan, [("running", b.call("running_sum", b.column("change")))])
            plan = try b.derive(plan, [("later", b.call("next", time))])
            plan = try b.filter(plan, b.column("later").isNull.or(b.column("later").compared(.greater, time)))
            plan = try b.derive(plan, [("peak", b.call("max", running))])
            plan = try b.derive(plan, [("at_peak", running.compared(.equal, b.column("peak")))])
            plan = try b.derive(plan, [("was", b.call("prev", atPeak))])
            plan = try b.filter(plan, b.column("was").isNull.or(b.column("was").compared(.notEqual, atPeak)))
            plan = try b.derive(plan, [("until", b.call("next", time))])
            plan = try b.filter(plan, atPeak)
            plan = try b.summarize(plan, [(.count, nil, as: "times_at_peak"), (.max, running, as: "vehicles"),
                                          (.min, time, as: "from"), (.min, b.column("until"), as: "until")], by: [])
            plan = try b.filter(plan, b.column("times_at_peak").compared(.greater, b.int(0)))
            plan = try b.select(plan, columns: ["vehicles", "from", "until", "times_at_peak"])
            let how = blocks ? [] :
                ["\(feed.name)'s trips do not all name a block (block_id), so each trip counts as a vehicle: this is the most trips running at once"]
            return FeedPlan(plan: plan, notes: try probes.whyNone(day) + probes.choiceNote(day) + how + repeats)
        }
    }
}
