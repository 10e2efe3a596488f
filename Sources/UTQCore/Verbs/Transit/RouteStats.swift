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
        parse: { p, _ in
            guard p.eatKeyword("stats") else {
                throw Diagnostic("expected stats after route, as in: route stats on 2007-06-04", at: p.current.span)
            }
            return Syntax(day: try ServiceDay.parseOptional(&p), keys: try TripTimes.parseKeys(&p))
        })

    struct Syntax: FeedSyntax {
        static let verb = "route stats on"
        var day: ServiceDay?
        var keys: [String]

        var syntax: String { (["stats", TripTimes.syntax(day, keys)]).filter { !$0.isEmpty }.joined(separator: " ") }
        func whyNoRows(_ feed: FeedTables) -> [String] { ServiceVerb.whyNoService(feed, day) }

        func notes(_ feed: FeedTables) -> [String] {
            let how = usesShapes(feed) ? "trip lengths follow shapes.txt where a trip has a shape, else the straight lines between its stops"
                : "\(feed.name) has no shapes, so trip lengths are the straight lines between stops: real roads are longer"
            return ServiceDay.choiceNote(day, feed) + [how] + TripTimes.repeats(feed)
        }

        func usesShapes(_ feed: FeedTables) -> Bool {
            feed.table("trips")?.column("shape_id") != nil && (feed.table("shapes")?.rowCount ?? 0) > 0
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> LogicalPlan {
            let text = PlanText(binder: binder, verb: Self.verb)
            var trips = try TripTimes.plan(feed, on: try ServiceDay.resolve(day, feed, verb: Self.verb), text)
            let legs = try text.join(
                try text.pipeline("\(feed.ref("stop_times")) | select trip_id, stop_sequence, stop_id"),
                try text.pipeline("\(feed.ref("stops")) | select stop_id, lat = stop_lat, lon = stop_lon"), named: "stop", on: "stop_id")
            let stopLengths = try text.stages("""
                sort trip_id, stop_sequence | let metres = coalesce(distance(prev(lat), prev(lon), lat, lon), 0) by trip_id | \
                sum metres as stop_metres by trip_id
                """, on: legs)
            trips = try text.join(trips, stopLengths, named: "stop_lengths", .left, on: "trip_id")
            var metres = "stop_metres"
            if usesShapes(feed) {
                let shapeLengths = try text.pipeline("""
                    \(feed.ref("shapes")) | sort shape_id, shape_pt_sequence | \
                    let metres = coalesce(distance(prev(shape_pt_lat), prev(shape_pt_lon), shape_pt_lat, shape_pt_lon), 0) by shape_id | \
                    sum metres as shape_metres by shape_id
                    """)
                trips = try text.join(trips, shapeLengths, named: "shape_lengths", .left, on: "shape_id")
                metres = "coalesce(shape_metres, stop_metres)"
            }
            let by = TripTimes.by(keys.isEmpty ? ["route_id"] : keys)
            let names = by.dropFirst(4)
            return try text.stages("""
                let metres = \(metres) | \
                count as trips, min first_departure as first_departure, max last_arrival as last_arrival, \
                sum duration as time, sum metres as metres\(by) | \
                let service_hours = round(hours(time), 2), distance_km = round(metres / 1000, 2), \
                mean_trip_km = round(metres / 1000 / trips, 2), speed_kmh = round(metres / 1000 / hours(time), 1) | \
                select \(names), trips, first_departure, last_arrival, service_hours, distance_km, mean_trip_km, speed_kmh | \
                sort \(names)
                """, on: trips)
        }
    }
}
