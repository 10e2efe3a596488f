/// What span, peak vehicles and route stats share: each trip of a day with when it leaves its
/// first stop and reaches its last, from stop_times.
enum TripTimes {
    /// trip_id and the trips.txt columns of each run of a trip on the day (a trip
    /// frequencies.txt repeats runs many times, numbered in run), with first_departure,
    /// last_arrival and duration. A stop without an arrival time counts its departure time; a
    /// trip with no times at all is left out.
    static func plan(_ feed: FeedTables, on day: ServiceDay, _ b: PlanBuilder) throws -> LogicalPlan {
        let trips = try ServiceVerb.trips(feed, on: day, b)
        try feed.require("stop_times", ["trip_id", "departure_time"], b, verb: "the trip times")
        let departure = b.column("departure_time")
        let arrival = feed.has("stop_times", column: "arrival_time") ? b.call("coalesce", b.column("arrival_time"), departure) : departure
        let timed = try b.filter(try DeparturesVerb.plan(feed, on: day, b), departure.isNotNull.or(arrival.isNotNull))
        let ends = try b.derive(timed, [("arrives", arrival), ("leaves", b.call("coalesce", departure, arrival))])
        let times = try b.summarize(ends, [(.min, b.column("leaves"), as: "first_departure"), (.max, b.column("arrives"), as: "last_arrival")],
                                    by: [b.key("trip_id"), b.key("run")])
        return try b.derive(try b.join(trips, times, named: "times", on: [b.column("trip_id")]),
                            [("duration", b.column("last_arrival").minus(b.column("first_departure")))])
    }

    /// `[by KEY, …]` after a transit verb, each key with where it was written.
    static func parseKeys(_ p: inout Parser) throws -> [KeyName] {
        var keys: [KeyName] = []
        if p.eatKeyword("by") {
            repeat {
                let (name, span) = try p.name("a column to sum up by")
                keys.append(KeyName(name: name, span: span))
            } while p.eatSymbol(.comma)
            // `headways by route_id on 2007-06-04`: the day (and the hours) come first.
            if p.current.isKeyword("on") || p.current.isKeyword("between") {
                let at = p.current.span
                var rest = ""
                if p.eatKeyword("on"), let (day, _) = try? p.path("a date") { rest = "on \(day) " }
                throw Diagnostic("the day and the hours come before by", at: at,
                                 hint: "write: … \(rest.isEmpty ? "on DATE " : rest)by \(keys.map(\.name).joined(separator: ", "))")
            }
        }
        return keys
    }

    static func syntax(_ day: ServiceDay?, _ keys: [KeyName]) -> String {
        [day.map { "on \($0.text)" }, keys.isEmpty ? nil : "by " + keys.map(\.name).joined(separator: ", ")].compactMap { $0 }.joined(separator: " ")
    }
}

/// A column named after `by` in a transit verb, with where it was written (its errors point
/// there).
struct KeyName: Sendable {
    var name: String
    var span: SourceSpan

    var groupKey: GroupKey { .column(name, at: span) }
    var expr: Expr { .column(name, span) }
}
