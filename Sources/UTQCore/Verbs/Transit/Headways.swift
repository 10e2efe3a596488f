/// `headways on DATE [between T1 and T2] [by KEYS]`: how often vehicles come, from the gaps
/// between consecutive departures at each stop.
enum HeadwaysVerb {
    static let spec = VerbSpec(
        name: "headways", category: .transit,
        usage: "FEED | headways [on DATE] [between \"HH:MM\" and \"HH:MM\"] [by KEY, …]",
        summary: "Departures and the min / median / max gap between consecutive departures at each stop, on a day, summed up by keys.",
        details: """
        The trips of the day are those of `service on DATE`. At each stop, in each direction \
        (direction_id; where a feed leaves it empty, each trip_headsign, said in a note) (and \
        for each value of the keys), departures are put in time order and each one's headway is \
        the time since the one before; the first of the day has none. Times past 24:00 (a trip \
        that leaves after midnight on the day's service) count as they are written, after the \
        day's other departures. Stop times without a departure time (stops that are not timepoints) \
        are left out. explain shows the steps.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | headways on 2007-06-05 by route_id",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | headways on 2007-06-05 between \"07:00\" and \"19:00\" by route_id, stop_id"],
        completes: .column, keywords: ["on", "between", "and", "by"],
        parse: { p, verb in
            let day = try ServiceDay.parseOptional(&p)
            var window: (String, String)? = nil
            if p.eatKeyword("between") {
                let from = try clock(&p)
                guard p.eatKeyword("and") else {
                    throw Diagnostic("expected and between the two times, as in: between \"07:00\" and \"19:00\"", at: p.current.span)
                }
                window = (from, try clock(&p))
            }
            return Syntax(day: day, window: window, keys: try TripTimes.parseKeys(&p), span: verb.span)
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
        var keys: [KeyName]
        var span: SourceSpan

        var syntax: String {
            (day.map { "on \($0.text)" } ?? "") + (window.map { " between \"\($0.0)\" and \"\($0.1)\"" } ?? "")
                + (keys.isEmpty ? "" : " by " + keys.map(\.name).joined(separator: ", "))
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let build = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: build)
            // What the notes need is asked with the calendar, in one round of probes.
            let notes = (try probes.untimedNote(), try probes.repeatsNote())
            let directed = try probes.tripsWithDirection()
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            let departure = build.column("departure_time")
            var timed = departure.isNotNull
            if let (from, to) = window {
                timed = timed.and(departure.compared(.greaterEqual, build.text(from))).and(departure.compared(.lessEqual, build.text(to)))
            }
            // Each run of a trip frequencies.txt repeats departs as a trip of its own.
            let rows = try build.filter(try DeparturesVerb.plan(feed, on: day, build), timed)
            // Gaps are between departures at one stop, one way, for one value of the keys.
            var apart = [build.key("stop_id")]
            var names: Set<String> = ["stop_id"]
            // One way is a direction_id; where the feed has the column but leaves it empty, a
            // headsign (or the trip's shape), so buses that pass a stop both ways are not one
            // queue. A feed without the column is read as it always was: one queue per stop.
            var wayNote: [String] = []
            if rows.schema.index(of: "direction_id") != nil, (directed ?? 1) > 0 {
                apart.append(build.key("direction_id")); names.insert("direction_id")
            } else if rows.schema.index(of: "direction_id") != nil,
                      let way = ["trip_headsign", "shape_id"].first(where: { rows.schema.index(of: $0) != nil }) {
                apart.append(build.key(way)); names.insert(way)
                wayNote = ["\(feed.ref("trips")) has no direction_id, so each \(way) is a direction of its own: departures one way are not gaps of the other"]
            }
            for k in keys where names.insert(k.name.lowercased()).inserted { apart.append(k.groupKey) }
            let gaps = try build.derive(try build.sort(rows, [departure]), [("headway", departure.minus(build.call("prev", departure)))], by: apart)
            let headway = build.column("headway")
            let plan = try build.summarize(gaps, [(.count, nil, as: "departures"), (.min, headway, as: "min_headway"),
                                                  (.median, headway, as: "median_headway"), (.max, headway, as: "max_headway")],
                                           by: keys.map(\.groupKey))
            return FeedPlan(plan: plan, notes: try probes.whyNone(day) + probes.choiceNote(day) + notes.0 + notes.1 + wayNote)
        }
    }
}
