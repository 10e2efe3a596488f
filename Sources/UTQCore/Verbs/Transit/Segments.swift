/// `segments [on DATE] [by KEYS]`: consecutive stops of each trip with the distance between
/// them, the scheduled run time and the speed; by keys, summed up (a speed map).
enum SegmentsVerb {
    static let spec = VerbSpec(
        name: "segments", category: .transit,
        usage: "FEED | segments [on DATE] [by KEY, …]",
        summary: "Each stop of a day's trips to the next: distance, scheduled run time and speed; by keys, summed up (a speed map).",
        details: """
        The trips of the day are those of `departures on DATE` (each run of a trip \
        frequencies.txt repeats is a trip). One row per pair of consecutive stops of a run: \
        from_stop_id, to_stop_id, departure_time from the first, arrival_time at the second, \
        distance_m, run_time and speed_kmh. distance_m follows the trip's shape: by \
        shape_dist_traveled where the shape and both stop times give it (its unit is told from \
        the shapes' lengths along their points: metres, kilometres, miles or feet, said in a \
        note), else along the shape's points between the stops' nearest positions on it (each \
        stop at or after the one before), else straight from stop to stop; measured says which. \
        A segment with a stop without times has no run time; one the timetable gives no time \
        has no speed.

        With by KEYS (route_id, direction_id, from_stop_id, to_stop_id, hour or \
        every 15m of departure_time, …), one row per group: segments, distance_km, run_time, \
        speed_kmh (all the distance over all the time), mean_speed_kmh and median_speed_kmh \
        (of the segments' speeds).
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | segments on 2007-06-05 by route_id",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | segments on 2007-06-05 by route_id, hour | where route_id = \"CITY\"",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | segments on 2007-06-05 | where trip_id = \"AB1\""],
        completes: .column, keywords: ["on", "by", "every"],
        parse: { p, verb in
            let day = try ServiceDay.parseOptional(&p)
            var keys: [GroupKey] = []
            if p.eatKeyword("by") {
                repeat { keys.append(try AggregateVerb.parseKey(&p)) } while p.eatSymbol(.comma)
                if p.current.isKeyword("on") {
                    throw Diagnostic("the day comes before by", at: p.current.span, hint: "write: segments on DATE by …")
                }
            }
            return Syntax(day: day, keys: keys, span: verb.span)
        })

    struct Syntax: FeedSyntax {
        static let verb = "segments on"
        var day: ServiceDay?
        var keys: [GroupKey]
        var span: SourceSpan

        var syntax: String {
            [day.map { "on \($0.text)" }, keys.isEmpty ? nil : "by " + keys.map(\.syntax).joined(separator: ", ")].compactMap { $0 }.joined(separator: " ")
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let b = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: b)
            let repeats = try probes.repeatsNote()
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            try feed.require("stops", ["stop_id", "stop_lat", "stop_lon"], b, verb: "segments")
            let departures = try DeparturesVerb.plan(feed, on: day, b)
            let wanted = ["trip_id", "run", "route_id", "direction_id", "shape_id", "stop_sequence", "stop_id", "arrival_time", "departure_time", "shape_dist_traveled"]
            let rows = try b.select(departures, columns: wanted.filter { departures.schema.index(of: $0) != nil })
            let stops = try b.select(try feed.scan("stops", b), columns: ["stop_id", "stop_lat", "stop_lon"])
            var shapes: LogicalPlan? = nil
            if RouteStatsVerb.Syntax.shapesReadable(feed) {
                let columns = ["shape_id", "shape_pt_sequence", "shape_pt_lat", "shape_pt_lon", "shape_dist_traveled"]
                shapes = try b.select(try feed.scan("shapes", b), columns: columns.filter { feed.has("shapes", column: $0) })
            }
            let segments = LogicalPlan(SegmentsNode(rows, stops: stops, shapes: shapes))
            let notes = try probes.whyNone(day) + probes.choiceNote(day) + repeats
            guard !keys.isEmpty else {
                return FeedPlan(plan: try b.sort(segments, ["trip_id", "run", "stop_sequence"].map(b.column)), notes: notes)
            }
            let c = b.column
            let summary = try b.summarize(segments, [(.count, nil, as: "segments"), (.sum, c("distance_m"), as: "metres"),
                                                     (.sum, c("run_time"), as: "run_time"), (.avg, c("speed_kmh"), as: "mean"),
                                                     (.median, c("speed_kmh"), as: "median")], by: keys)
            let km = c("metres").divided(by: b.int(1000))
            var plan = try b.derive(summary, [
                ("distance_km", b.call("round", km, b.int(2))),
                ("speed_kmh", b.call("round", km.divided(by: b.call("hours", c("run_time"))), b.int(1))),
                ("mean_speed_kmh", b.call("round", c("mean"), b.int(1))),
                ("median_speed_kmh", b.call("round", c("median"), b.int(1))),
            ])
            let keyNames = plan.schema.groupKeys ?? []
            plan = try b.select(plan, (keyNames + ["segments", "distance_km", "run_time", "speed_kmh", "mean_speed_kmh", "median_speed_kmh"]).map { (nil, c($0)) })
            return FeedPlan(plan: plan, notes: notes)
        }
    }
}
