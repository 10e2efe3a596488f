/// `A | diff B [on DATE | from DATE to DATE]`: what changed from one version of a feed to
/// another, as one table a pipeline can sum up.
enum DiffVerb {
    static let spec = VerbSpec(
        name: "diff", category: .transit,
        usage: "FEED | diff FEED [on DATE | from DATE to DATE]",
        summary: "What changed from one GTFS feed to another: routes, stops, services and, day by day, trips added, removed, retimed or rerouted.",
        details: """
        One row per change, in one table: kind (route, stop, service or trip), change, id (the \
        route_id, stop_id, service_id or trip_id), route_id, date, detail, metres and shift. \
        Routes and stops are matched by id: added, removed or renamed, and a stop whose position \
        changed is moved, by metres (any change of its coordinates: where metres > 5 leaves out \
        rounding). Services and trips are compared on each day, by default every day either \
        calendar names (on DATE, or from DATE to DATE, for fewer): a service that runs that day \
        in one feed only is added or removed, and so is a trip (matched by trip_id); a trip of \
        both with other stops or another route is rerouted (detail lists the stops left out \
        and added), with the same stops and other times, or other frequencies, retimed (shift: \
        how much later its first departure is). As a table it sums up: diff b | count by kind, \
        change; diff b | where kind = "trip" | count by route_id, date, change.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as a; load datasets/gtfs/demo-transit as b; a | diff b | count by kind, change",
                   "load datasets/gtfs/demo-transit.zip as a; load datasets/gtfs/demo-transit as b; a | diff b from 2007-06-04 to 2007-06-10 | where kind = \"trip\""],
        completes: .table, keywords: ["on", "from", "to"],
        parse: { p, verb in
            let (other, otherSpan) = try p.tableName("the feed to compare with, as in: a | diff b")
            var from: ServiceDay? = nil, to: ServiceDay? = nil
            if p.eatKeyword("on") {
                from = try ServiceDay.parse(&p); to = from
            } else if p.eatKeyword("from") {
                from = try ServiceDay.parse(&p)
                guard p.eatKeyword("to") else {
                    throw Diagnostic("expected to and the last day, as in: from 2007-06-01 to 2007-06-30", at: p.current.span)
                }
                to = try ServiceDay.parse(&p)
                if to!.days < from!.days {
                    throw Diagnostic("\(to!.text) comes before \(from!.text)", at: to!.span, hint: "write the first day first: from \(to!.text) to \(from!.text)")
                }
            }
            return Syntax(other: other, otherSpan: otherSpan, from: from, to: to, span: verb.span)
        })

    struct Syntax: FeedSyntax {
        static let verb = "diff"
        var other: String
        var otherSpan: SourceSpan
        var from: ServiceDay?, to: ServiceDay?
        var span: SourceSpan

        var syntax: String {
            other + (from.map { f in f.days == to?.days ? " on \(f.text)" : " from \(f.text) to \(to!.text)" } ?? "")
        }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let b = PlanBuilder(binder: binder, span: span)
            let catalog = binder.context.catalog
            guard let second = FeedTables.named(other, in: catalog) ?? catalog.resolve(other).flatMap({ FeedTables.owning($0, in: catalog) }) else {
                throw Diagnostic("\(other) is no GTFS feed", at: otherSpan, hint: "load the other version first: load FILE.zip as \(other)")
            }
            let wanted: [(String, [String])] = [
                ("trips", ["trip_id", "route_id", "service_id"]),
                ("stop_times", ["trip_id", "stop_sequence", "stop_id", "arrival_time", "departure_time"]),
                ("stops", ["stop_id", "stop_name", "stop_lat", "stop_lon"]),
                ("routes", ["route_id", "route_short_name", "route_long_name"]),
                ("frequencies", ["trip_id", "start_time", "end_time", "headway_secs"]),
                ("calendar", ["service_id", "start_date", "end_date"] + ServiceDay.weekdays),
                ("calendar_dates", ["service_id", "date", "exception_type"]),
            ]
            var files: [[String]] = [], parts: [LogicalPlan] = []
            for f in [feed, second] {
                var have: [String] = []
                for (file, columns) in wanted where f.has(file) {
                    have.append(file)
                    parts.append(try b.select(try f.scan(file, b), columns: columns.filter { f.has(file, column: $0) }))
                }
                files.append(have)
            }
            let node = FeedDiffNode(names: [feed.name, second.name], files: files, parts: parts, from: from?.days, to: to?.days)
            return FeedPlan(plan: LogicalPlan(node))
        }
    }
}
