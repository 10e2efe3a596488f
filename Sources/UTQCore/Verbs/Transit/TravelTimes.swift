/// `travel times from STOP[, STOP…] at "HH:MM" [on DATE] …`: how soon every stop can be
/// reached from some stops, by RAPTOR over the day's departures.
enum TravelTimesVerb {
    /// Walking speed between stops: 1.3 m/s (4.7 km/h), a common figure for adults with
    /// some luggage, as routing engines such as R5 take.
    static let walkSpeed = 1.3

    static let spec = VerbSpec(
        name: "travel", category: .transit,
        usage: "FEED | travel times from STOP[, STOP …] at \"HH:MM\" | between \"HH:MM\" and \"HH:MM\" [on DATE] [until \"HH:MM\" | within DURATION] [transfer DURATION] [walk N m]",
        summary: "The earliest arrival at every stop reachable from some stops leaving at a time, with the travel time, transfers and the last trip (RAPTOR).",
        details: """
        A stop is written by its stop_id, or by its stop_name in quotes (every stop of that \
        name; a station stands for its platforms). The trips are the day's departures, each run \
        of a trip frequencies.txt repeats a trip of its own; a stop time without times is no \
        place to get on or off, and neither is one whose pickup_type (or drop_off_type) is 1. \
        RAPTOR (Delling, Pajor and Werneck) finds for each stop the earliest arrival and, of the \
        journeys that arrive then, the one with the fewest vehicles: transfers is the vehicles \
        boarded less one (empty for the stops left from, or walked to from them), and trip_id, \
        run and route_id are the last vehicle's.

        A rider who gets off may get on again at the same stop after the change time: \
        transfer DURATION (none when not given), or the stop's own from transfers.txt \
        (min_transfer_time of a transfer_type 2 row from the stop to itself; type 1 needs none; \
        type 3 allows no change there). Or walk once to another stop and board there: the walks \
        of transfers.txt (min_transfer_time, else the distance at 1.3 m/s), and with walk N m \
        between any two stops (or platforms: not stations nor entrances) at most N metres \
        apart, at 1.3 m/s (4.7 km/h); transfer_type 3 between two stops bars the walk.

        until stops at an arrival time, within at a travel time. between T1 and T2 asks for \
        every time in the window a vehicle can be caught: each stop gets its shortest travel \
        time, with the departure_time that gives it (the fewest transfers, then the earliest, \
        on a tie). The search runs in memory; explain says so.

        An isochrone is the reached stops with the walk left from each: join feed.stops on \
        stop_id | let walk = buffer(point(stop_lon, stop_lat), seconds(45m - travel_time) * \
        1.3) | dissolve walk, the area within 45 minutes as one polygon to map or save.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; feed | travel times from STAGECOACH at \"08:00\" on 2007-06-05",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | travel times from BEATTY_AIRPORT at \"07:50\" on 2007-06-05 within 2h walk 500 m",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | travel times from \"Stagecoach Hotel & Casino (Demo)\" between \"08:00\" and \"09:00\" on 2007-06-05",
                   "load datasets/gtfs/demo-transit.zip as feed; feed | travel times from STAGECOACH at \"06:00\" on 2007-06-05 within 45m | join feed.stops on stop_id | let walk = buffer(point(stop_lon, stop_lat), seconds(45m - travel_time) * 1.3) | dissolve walk | let km2 = round(area(dissolve) / 1e6, 2)"],
        completes: .keyword(["times"]), keywords: ["times", "from", "at", "between", "and", "on", "until", "within", "transfer", "walk", "m", "km"],
        parse: { p, verb in try parse(&p, verb) })

    struct Syntax: FeedSyntax {
        static let verb = "travel times"
        var origins: [(String, SourceSpan)]
        var leave: (String, SourceSpan)
        var leaveUntil: String?
        var day: ServiceDay?
        var until: String?
        var within: Int64?
        var transfer: Int64?
        var walkMetres: Double?
        var span: SourceSpan

        var syntax: String {
            var words = ["times from " + origins.map(\.0).joined(separator: ", ")]
            words.append(leaveUntil.map { "between \"\(leave.0)\" and \"\($0)\"" } ?? "at \"\(leave.0)\"")
            if let day { words.append("on \(day.text)") }
            if let until { words.append("until \"\(until)\"") }
            if let within { words.append("within \(TimeText.duration(within))") }
            if let transfer { words.append("transfer \(TimeText.duration(transfer))") }
            if let walkMetres { words.append("walk \(NumberText.double(walkMetres)) m") }
            return words.joined(separator: " ")
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let b = PlanBuilder(binder: binder, span: span)
            let probes = FeedProbes(feed: feed, build: b)
            try feed.require("stops", ["stop_id", "stop_name", "stop_lat", "stop_lon"], b, verb: Self.verb)
            let repeats = try probes.repeatsNote()
            let known = try TravelTimesVerb.stops(probes)
            guard let day = try probes.day(day, verb: Self.verb) else { return probes.pending(Self.verb, day: day) }
            // Until the stops are read (explain reads none), the plan names them as written.
            let starts = try known.map { try TravelTimesVerb.resolve(origins, $0, feed: feed) } ?? origins.map(\.0)
            let departures = try DeparturesVerb.plan(feed, on: day, b)
            let wanted = ["trip_id", "run", "route_id", "stop_id", "stop_sequence", "arrival_time", "departure_time", "pickup_type", "drop_off_type"]
            let rows = try b.select(departures, columns: wanted.filter { departures.schema.index(of: $0) != nil })
            let stops = try b.select(try feed.scan("stops", b), columns: ["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type"].filter { feed.has("stops", column: $0) })
            var transfers: LogicalPlan? = nil
            if feed.has("transfers", column: "from_stop_id") && feed.has("transfers", column: "to_stop_id") {
                let columns = ["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"].filter { feed.has("transfers", column: $0) }
                transfers = try b.select(try feed.scan("transfers", b), columns: columns)
            }
            func seconds(_ clock: String) -> Int32 { Int32(TravelTimesVerb.seconds(clock)) }
            let question = TravelTimesNode.Question(
                origins: starts, leave: seconds(leave.0), leaveUntil: leaveUntil.map(seconds), until: until.map(seconds),
                within: within.map { Int32(clamping: $0 / 1_000_000) }, change: Int32(clamping: (transfer ?? 0) / 1_000_000),
                walkMetres: walkMetres, walkSpeed: TravelTimesVerb.walkSpeed)
            let plan = LogicalPlan(TravelTimesNode(rows, stops: stops, transfers: transfers, question: question))
            let sorted = try b.sort(plan, [b.column("travel_time"), b.column("stop_id")])
            return FeedPlan(plan: sorted, notes: try probes.whyNone(day) + probes.choiceNote(day) + repeats)
        }
    }

    /// The feed's stops as the probe gives them (stop_id, stop_name, and location_type and
    /// parent_station where there), or nil until it has answered.
    static func stops(_ probes: FeedProbes) throws -> Table? {
        let feed = probes.feed, b = probes.build
        let columns = ["stop_id", "stop_name", "location_type", "parent_station"].filter { feed.has("stops", column: $0) }
        return try probes.ask("stops", "the stops of \(feed.ref("stops")), to find those written after from", { try b.select($0, columns: columns) })
    }

    /// The stop_ids the written stops stand for: a stop_id as written, else one that differs
    /// only in case, else every stop of that name; a station stands for its platforms.
    static func resolve(_ written: [(String, SourceSpan)], _ stops: Table, feed: FeedTables) throws -> [String] {
        var ids: [String] = [], names: [String] = [], children: [String: [String]] = [:]
        let id = stops.column("stop_id"), name = stops.column("stop_name"), parent = stops.column("parent_station")
        for i in 0..<stops.rowCount {
            let s = id?.value(at: i).plainText ?? ""
            ids.append(s); names.append(name?.value(at: i).plainText ?? "")
            if case .string(let p)? = parent?.value(at: i), !p.isEmpty { children[p, default: []].append(s) }
        }
        var out: [String] = []
        for (word, at) in written {
            var found = ids.contains(word) ? [word] : ids.filter { $0.lowercased() == word.lowercased() }
            if found.count != 1 { found = zip(ids, names).filter { $0.1.lowercased() == word.lowercased() }.map(\.0) }
            guard !found.isEmpty else {
                let near = Suggest.closest(word, among: ids) ?? Suggest.closest(word, among: names)
                throw Diagnostic("\(feed.name) has no stop \(word)" + (near.map { " — did you mean \($0)?" } ?? ""), at: at,
                                 hint: "a stop is its stop_id, or its stop_name in quotes; \(feed.ref("stops")) lists them")
            }
            for s in found { out += children[s] ?? [s] }
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }
}
