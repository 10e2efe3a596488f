/// What span, peak vehicles and route stats share: each trip of a day with when it leaves its
/// first stop and reaches its last, from stop_times.
enum TripTimes {
    /// trip_id and the trips.txt columns of each trip that runs on the day, with
    /// first_departure, last_arrival and duration. A stop without an arrival time counts its
    /// departure time; a trip with no times at all is left out.
    static func plan(_ feed: FeedTables, on day: ServiceDay, _ text: PlanText) throws -> LogicalPlan {
        let trips = try ServiceVerb.trips(feed, on: day, text)
        let stopTimes = feed.table("stop_times")
        let arrival = stopTimes?.column("arrival_time") != nil ? "coalesce(arrival_time, departure_time)" : "departure_time"
        let times = try text.pipeline("""
            \(feed.ref("stop_times")) | where departure_time is not null or \(arrival) is not null | \
            let arrives = \(arrival), leaves = coalesce(departure_time, \(arrival)) | \
            min leaves as first_departure, max arrives as last_arrival by trip_id
            """)
        return try text.stages("let duration = last_arrival - first_departure",
                               on: try text.join(trips, times, named: "times", on: "trip_id"))
    }

    /// Whether every trip of trips.txt names its block (the vehicle that runs it).
    static func hasBlocks(_ feed: FeedTables) -> Bool {
        guard let t = feed.table("trips"), let b = t.column("block_id") else { return false }
        return t.rowCount > 0 && (0..<t.rowCount).allSatisfy { b.isValid($0) && !b.value(at: $0).plainText.isEmpty }
    }

    /// Trips that repeat by frequencies.txt are a timetable run again every headway_secs;
    /// their repeats are not rows of stop_times, so the verbs see each such trip once.
    static func repeats(_ feed: FeedTables) -> [String] {
        guard let f = feed.table("frequencies"), f.rowCount > 0, let ids = f.column("trip_id") else { return [] }
        let trips = Set((0..<f.rowCount).map { ids.value(at: $0).plainText })
        return ["\(NumberText.counted(trips.count, "trip")) of \(feed.name) repeat by frequencies.txt; each counts here as its timetable once, without its repeats (their headway_secs say how often they run)"]
    }

    /// `by a, b` with the names quoted, or nothing.
    static func by(_ keys: [String]) -> String {
        keys.isEmpty ? "" : " by " + keys.map { "`\($0)`" }.joined(separator: ", ")
    }

    /// `[by KEY, …]` after a transit verb.
    static func parseKeys(_ p: inout Parser) throws -> [String] {
        var keys: [String] = []
        if p.eatKeyword("by") {
            repeat { keys.append(try p.name("a column to sum up by").0) } while p.eatSymbol(.comma)
        }
        return keys
    }

    static func syntax(_ day: ServiceDay?, _ keys: [String]) -> String {
        [day.map { "on \($0.text)" }, keys.isEmpty ? nil : "by " + keys.joined(separator: ", ")].compactMap { $0 }.joined(separator: " ")
    }
}
