/// `route stats [on DATE] [by KEYS]`: trips, hours, distance and speed of each route on a day,
/// after gtfs_kit's compute_route_stats.
enum RouteStatsVerb {
    static let spec = VerbSpec(
        name: "route", category: .transit,
        usage: "FEED | route stats [on DATE] [by KEY, …]",
        summary: "Per route on a day: trips, first departure, last arrival, service hours, distance, mean trip length and average speed.",
        details: """
        The trips of the day are those of `service on DATE`, summed up by route_id unless other \
        keys are given (route_id, direction_id, say). service_hours adds up each trip's time from \
        its first departure to its last arrival. A trip's length is its shape's (shapes.txt, \
        point to point) when it has one, else the straight lines between its stops in \
        stop_sequence order; a note says which. distance_km adds the trips' lengths up, \
        mean_trip_km divides by trips and speed_kmh by service_hours. Without a date, the busiest \
        day is taken and said.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | route stats on 2007-06-05"],
        completes: .keyword(["stats"]), keywords: ["stats", "on", "by"],
        parse: { p, verb in
            guard p.eatKeyword("stats") else {
                throw Diagnostic("expected stats after route, as in: route stats on 2007-06-04", at: p.current.span)
            }
            return Syntax(day: try ServiceDay.parseOptional(&p), keys: try TripTimes.parseKeys(&p), span: verb.span)
        })

    struct Syntax: FeedSyntax {
        static let verb = "route stats on"
        var day: ServiceDay?
        var keys: [KeyName]
        var span: SourceSpan

        var syntax: String { (["stats", TripTimes.syntax(day, keys)]).filter { !$0.isEmpty }.joined(separator: " ") }

        /// Whether trip lengths can follow shapes.txt: the trips name shapes and the shapes have points.
        static func shapesReadable(_ feed: FeedTables) -> Bool {
            feed.has("trips", column: "shape_id") && ["shape_id", "shape_pt_sequence", "shape_pt_lat", "shape_pt_lon"].allSatisfy { feed.has("shapes", column: $0) }
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let b = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: b)
            let (points, repeats) = (try probes.shapePoints(), try probes.repeatsNote())
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            var trips = try TripTimes.plan(feed, on: day, b)
            func metres(_ lat: String, _ lon: String) -> Expr {
                b.call("coalesce", b.call("distance", b.call("prev", b.column(lat)), b.call("prev", b.column(lon)), b.column(lat), b.column(lon)), b.int(0))
            }
            let legs = try b.join(try b.select(try feed.scan("stop_times", b), columns: ["trip_id", "stop_sequence", "stop_id"]),
                                  try b.select(try feed.scan("stops", b), [(nil, b.column("stop_id")), ("lat", b.column("stop_lat")), ("lon", b.column("stop_lon"))]),
                                  named: "stop", on: [b.column("stop_id")])
            let walked = try b.derive(try b.sort(legs, [b.column("trip_id"), b.column("stop_sequence")]), [("metres", metres("lat", "lon"))], by: [b.key("trip_id")])
            let stopLengths = try b.summarize(walked, [(.sum, b.column("metres"), as: "stop_metres")], by: [b.key("trip_id")])
            trips = try b.join(trips, stopLengths, named: "stop_lengths", .left, on: [b.column("trip_id")])
            var length = b.column("stop_metres")
            // A trip without a shape (or a feed whose shapes have no points) falls back on its stops.
            if Self.shapesReadable(feed) {
                let points = try b.sort(try feed.scan("shapes", b), [b.column("shape_id"), b.column("shape_pt_sequence")])
                let along = try b.derive(points, [("metres", metres("shape_pt_lat", "shape_pt_lon"))], by: [b.key("shape_id")])
                let shapeLengths = try b.summarize(along, [(.sum, b.column("metres"), as: "shape_metres")], by: [b.key("shape_id")])
                trips = try b.join(trips, shapeLengths, named: "shape_lengths", .left, on: [b.column("shape_id")])
                length = b.call("coalesce", b.column("shape_metres"), b.column("stop_metres"))
            }
            let by = keys.isEmpty ? [KeyName(name: "route_id", span: span)] : keys
            let time = b.column("time"), metres = b.column("metres"), count = b.column("trips"), km = metres.divided(by: b.int(1000))
            let summary = try b.summarize(try b.derive(trips, [("metres", length)]),
                                          [(.count, nil, as: "trips"), (.min, b.column("first_departure"), as: "first_departure"),
                                           (.max, b.column("last_arrival"), as: "last_arrival"), (.sum, b.column("duration"), as: "time"),
                                           (.sum, b.column("metres"), as: "metres")], by: by.map(\.groupKey))
            let figures = try b.derive(summary, [
                ("service_hours", b.call("round", b.call("hours", time), b.int(2))),
                ("distance_km", b.call("round", km, b.int(2))),
                ("mean_trip_km", b.call("round", km.divided(by: count), b.int(2))),
                ("speed_kmh", b.call("round", km.divided(by: b.call("hours", time)), b.int(1))),
            ])
            let shown = try b.select(figures, by.map { (nil, $0.expr) } + ["trips", "first_departure", "last_arrival", "service_hours", "distance_km",
                                                                             "mean_trip_km", "speed_kmh"].map { (nil, b.column($0)) })
            let plan = try b.sort(shown, by.map(\.expr))
            let usesShapes = Self.shapesReadable(feed) && (points ?? 0) > 0
            let how = usesShapes ? "trip lengths follow shapes.txt where a trip has a shape, else the straight lines between its stops"
                : "\(feed.name) has no shapes, so trip lengths are the straight lines between stops: real roads are longer"
            return FeedPlan(plan: plan, notes: try probes.whyNone(day) + probes.choiceNote(day) + [how] + repeats)
        }
    }
}
