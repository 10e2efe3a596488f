/// `headways on DATE [between T1 and T2] [by KEYS]`: how often vehicles come, from the gaps
/// between consecutive departures at each stop.
enum HeadwaysVerb {
    static let spec = VerbSpec(
        name: "headways", category: .transit,
        usage: "FEED | headways [on DATE] [between \"HH:MM\" and \"HH:MM\"] [by KEY, …]",
        summary: "Departures and the min / median / max gap between consecutive departures at each stop, on a day, summed up by keys.",
        details: """
        The trips of the day are those of `service on DATE`. At each stop, in each direction (and \
        for each value of the keys), departures are put in time order and each one's headway is \
        the time since the one before; the first of the day has none. Times past 24:00 (a trip \
        that leaves after midnight on the day's service) count as they are written, after the \
        day's other departures. Stop times without a departure time (stops that are not timepoints) \
        are left out. explain shows the steps.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | headways on 2007-06-05 by route_id",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | headways on 2007-06-05 between \"07:00\" and \"19:00\" by route_id, stop_id"],
        completes: .column, keywords: ["on", "between", "and", "by"],
        parse: { p, _ in
            let day = try ServiceDay.parseOptional(&p)
            var window: (String, String)? = nil
            if p.eatKeyword("between") {
                let from = try clock(&p)
                guard p.eatKeyword("and") else {
                    throw Diagnostic("expected and between the two times, as in: between \"07:00\" and \"19:00\"", at: p.current.span)
                }
                window = (from, try clock(&p))
            }
            var keys: [String] = []
            if p.eatKeyword("by") {
                repeat { keys.append(try p.name("a column to sum up by").0) } while p.eatSymbol(.comma)
            }
            return Syntax(day: day, window: window, keys: keys)
        })

    /// A clock time of the service day, as GTFS writes them: "07:00", "25:10:00".
    static func clock(_ p: inout Parser) throws -> String {
        let t = p.current
        guard case .string(let s) = t.kind else {
            throw Diagnostic("expected a time in quotes, as in \"07:00\", found \(t.describe)", at: t.span)
        }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isNumber) }),
              parts.dropFirst().allSatisfy({ Int($0)! < 60 }) else {
            throw Diagnostic("\"\(s)\" is not a time of day", at: t.span, hint: "write hours and minutes: \"07:00\" (past midnight: \"25:30\")")
        }
        p.advance()
        return s
    }

    struct Syntax: FeedSyntax {
        static let verb = "headways on"
        var day: ServiceDay?
        var window: (String, String)?
        var keys: [String]

        var syntax: String {
            (day.map { "on \($0.text)" } ?? "") + (window.map { " between \"\($0.0)\" and \"\($0.1)\"" } ?? "") + (keys.isEmpty ? "" : " by " + keys.joined(separator: ", "))
        }

        func whyNoRows(_ feed: FeedTables) -> [String] { ServiceVerb.whyNoService(feed, day) }

        func notes(_ feed: FeedTables) -> [String] {
            ServiceDay.choiceNote(day, feed) + untimed(feed) + TripTimes.repeats(feed)
        }

        /// Stops that are no timepoints have no departure time, so no headway; say how many.
        func untimed(_ feed: FeedTables) -> [String] {
            guard let t = feed.table("stop_times"), let c = t.column("departure_time"), c.nullCount > 0 else { return [] }
            return ["\(NumberText.counted(c.nullCount, "stop time")) of \(feed.name) \(c.nullCount == 1 ? "has" : "have") no departure time (stops that are no timepoints) and \(c.nullCount == 1 ? "is" : "are") left out"]
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> LogicalPlan {
            let text = PlanText(binder: binder, verb: Self.verb)
            let trips = try ServiceVerb.trips(feed, on: try ServiceDay.resolve(day, feed, verb: Self.verb), text)
            let during = window.map { " and departure_time >= \"\($0.0)\" and departure_time <= \"\($0.1)\"" } ?? ""
            let departures = try text.pipeline(
                "\(feed.ref("stop_times")) | where departure_time is not null\(during) | select trip_id, stop_id, departure_time")
            let rows = try text.join(departures, trips, named: "trip", on: "trip_id")
            // Gaps are between departures at one stop, one way, for one value of the keys.
            var apart = ["stop_id"]
            if rows.schema.fields.contains(where: { $0.name == "direction_id" }) { apart.append("direction_id") }
            for k in keys where !apart.contains(where: { $0.lowercased() == k.lowercased() }) { apart.append(k) }
            let quoted = { (names: [String]) in names.map { "`\($0)`" }.joined(separator: ", ") }
            let by = keys.isEmpty ? "" : " by \(quoted(keys))"
            return try text.stages("""
                sort departure_time | let headway = departure_time - prev(departure_time) by \(quoted(apart)) | \
                count as departures, min headway as min_headway, median headway as median_headway, max headway as max_headway\(by)
                """, on: rows)
        }
    }
}
