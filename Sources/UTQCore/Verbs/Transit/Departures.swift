/// `departures [on DATE] [between T1 and T2]`: every departure of a day at every stop, the
/// trips frequencies.txt repeats once per run.
enum DeparturesVerb {
    static let spec = VerbSpec(
        name: "departures", category: .transit,
        usage: "FEED | departures [on DATE] [between \"HH:MM\" and \"HH:MM\"]",
        summary: "Every departure of a day at every stop, with the trips frequencies.txt repeats expanded into their runs.",
        details: """
        The trips of the day are those of `service on DATE`. A trip frequencies.txt repeats runs \
        every headway_secs from each window's start_time while the run starts before end_time \
        (exact_times 0 and 1 alike); each run's stop times are the trip's shifted so that it \
        leaves its first stop at the run's start, and run numbers the runs 1, 2, … in the order \
        they start (a trip that runs once has none). One row per stop time with a departure \
        time: trip_id, run, route_id, service_id, direction_id, stop_sequence, stop_id, \
        arrival_time and departure_time, in time order; times past 24:00 are the day's service \
        after midnight, written as GTFS writes them. headways, span, peak vehicles, route stats, \
        segments and travel times count the same runs. explain shows the expansion as a step.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | departures on 2007-06-05 | count by hour",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | departures on 2007-06-05 between \"08:00\" and \"09:00\" | where stop_id = \"STAGECOACH\""],
        completes: .keyword(["on", "between"]), keywords: ["on", "between", "and"],
        parse: { p, verb in
            let day = try ServiceDay.parseOptional(&p)
            var window: (String, String)? = nil
            if p.eatKeyword("between") {
                let from = try HeadwaysVerb.clock(&p)
                guard p.eatKeyword("and") else {
                    throw Diagnostic("expected and between the two times, as in: between \"07:00\" and \"09:00\"", at: p.current.span)
                }
                window = (from, try HeadwaysVerb.clock(&p))
            }
            return Syntax(day: day, window: window, span: verb.span)
        })

    static let verb = "departures on"

    /// The stop times of the trips that run on a day, frequencies.txt expanded: stop_times.txt's
    /// columns, then trips.txt's (and why the trip runs), then run. Stop times without times
    /// are kept (a verb leaves them out or says what it does with them).
    static func plan(_ feed: FeedTables, on day: ServiceDay, _ b: PlanBuilder) throws -> LogicalPlan {
        try feed.require("stop_times", ["trip_id", "stop_id", "stop_sequence", "departure_time"], b, verb: "departures")
        let trips = try ServiceVerb.trips(feed, on: day, b)
        let times = try b.join(try feed.scan("stop_times", b), trips, named: "trip", on: [b.column("trip_id")])
        var frequencies: LogicalPlan? = nil
        if feed.has("frequencies") {
            let columns = ["trip_id", "start_time", "end_time", "headway_secs"]
            try feed.require("frequencies", columns, b, verb: "departures")
            frequencies = try b.select(try feed.scan("frequencies", b), columns: columns)
        }
        return LogicalPlan(DeparturesNode(times, frequencies: frequencies, feed: feed.name))
    }

    struct Syntax: FeedSyntax {
        static let verb = DeparturesVerb.verb
        var day: ServiceDay?
        var window: (String, String)?
        var span: SourceSpan

        var syntax: String {
            [day.map { "on \($0.text)" }, window.map { "between \"\($0.0)\" and \"\($0.1)\"" }].compactMap { $0 }.joined(separator: " ")
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let b = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: b)
            let notes = (try probes.untimedNote(), try probes.repeatsNote())
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            let departure = b.column("departure_time")
            var timed = departure.isNotNull
            if let (from, to) = window {
                timed = timed.and(departure.compared(.greaterEqual, b.text(from))).and(departure.compared(.lessEqual, b.text(to)))
            }
            let rows = try b.filter(try DeparturesVerb.plan(feed, on: day, b), timed)
            let columns = ["trip_id", "run", "route_id", "service_id", "direction_id", "stop_sequence", "stop_id", "arrival_time", "departure_time"]
            let shown = try b.select(rows, columns: columns.filter { rows.schema.index(of: $0) != nil })
            let plan = try b.sort(shown, ["departure_time", "trip_id", "run", "stop_sequence"].map(b.column))
            return FeedPlan(plan: plan, notes: try probes.whyNone(day) + probes.choiceNote(day) + notes.0 + notes.1)
        }
    }
}
