/// `delays RT [on DATE] [by KEYS]`: a realtime feed's trip updates against the static feed's
/// timetable: each stop's scheduled arrival, the arrival observed or predicted, the delay, and
/// whether it was on time; by keys, the share on time.
enum DelaysVerb {
    /// On time: from a minute early to five minutes late (the window most agencies publish).
    static let early: Int64 = -60_000_000, late: Int64 = 300_000_000

    static let spec = VerbSpec(
        name: "delays", category: .transit,
        usage: "FEED | delays RT [on DATE] [by KEY, …]",
        summary: "A realtime feed's trip updates against the timetable: scheduled and observed arrival, delay, on time; by keys, the share on time.",
        details: """
        RT is a table of GTFS-Realtime trip updates (load trip_updates.pb as rt). Each update is \
        matched to the feed's stop_times by trip_id and stop_id (and stop_sequence where the update \
        has one). scheduled is the stop's arrival time (its departure where there is none) on the \
        update's start_date, counted from noon minus 12 hours as GTFS counts service times, in the \
        feed's time zone; on DATE gives the day for updates without a start_date. observed is the \
        update's arrival time, and delay is observed − scheduled, or the update's own arrival \
        delay where it gives no time. on_time holds from 1 minute early to 5 minutes late. By keys \
        (route_id, stop_id, or any column of the rows, as hour(scheduled) after a let), one row per \
        group: updates, mean_delay, on_time_share. Frequency-based trips have no timetable of \
        their own: their updates find template times.
        """,
        examples: ["load datasets/gtfs/demo-transit.zip as feed; load datasets/gtfs/demo-realtime.pb as rt; feed | delays rt by route_id"],
        completes: .column, keywords: ["on", "by"],
        parse: { p, verb in
            let (rt, rtSpan) = try p.tableName("the table of realtime trip updates, as in: feed | delays rt")
            return Syntax(rt: rt, rtSpan: rtSpan, day: try ServiceDay.parseOptional(&p), keys: try TripTimes.parseKeys(&p), span: verb.span)
        })

    struct Syntax: FeedSyntax {
        static let verb = "delays"
        var rt: String
        var rtSpan: SourceSpan
        var day: ServiceDay?
        var keys: [KeyName]
        var span: SourceSpan

        var syntax: String { "\(rt)" + (day.map { " on \($0.text)" } ?? "") + (keys.isEmpty ? "" : " by " + keys.map(\.name).joined(separator: ", ")) }

        func bind(feed: FeedTables, _ binder: Binder) throws -> FeedPlan {
            let build = PlanBuilder(binder: binder, span: span)
            let catalog = binder.context.catalog
            guard let name = catalog.resolve(rt), let updates = catalog[name] else {
                throw Diagnostic("unknown table \(rt)", at: rtSpan, hint: "load the trip updates first: load trip_updates.pb as \(rt)")
            }
            for column in ["trip_id", "stop_id", "arrival_time", "arrival_delay", "start_date"] where updates.schema.index(of: column) == nil {
                throw Diagnostic("\(name) has no column \(column): delays reads GTFS-Realtime trip updates", at: rtSpan,
                                 hint: "load a TripUpdates feed, as in: load datasets/gtfs/demo-realtime.pb as rt, then: \(feed.name) | delays rt")
            }
            try feed.require("stop_times", ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time"], build, verb: Self.verb)
            try feed.require("trips", ["trip_id", "route_id"], build, verb: Self.verb)
            let c = build.column
            let hasSequence = updates.schema.index(of: "stop_sequence") != nil
            // The updates' columns under names of their own, beside the timetable's.
            var picked: [(name: String?, expr: Expr)] = [("trip_id", c("trip_id")), ("stop_id", c("stop_id")),
                                                         ("rt_start_date", c("start_date")), ("observed", c("arrival_time")),
                                                         ("reported_delay", c("arrival_delay"))]
            if hasSequence { picked.append(("rt_sequence", c("stop_sequence"))) }
            if updates.schema.index(of: "stop_schedule") != nil { picked.append(("stop_schedule", c("stop_schedule"))) }
            let rtRows = try build.select(build.scan(updates), picked)
            let times = try build.select(feed.scan("stop_times", build), columns: ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time"])
            var joined = try build.join(times, rtRows, named: name, on: [c("trip_id"), c("stop_id")])
            if hasSequence {
                joined = try build.filter(joined, c("rt_sequence").isNull.or(c("rt_sequence").compared(.equal, c("stop_sequence"))))
            }
            let trips = try build.select(feed.scan("trips", build), columns: ["trip_id", "route_id"])
            joined = try build.join(joined, trips, named: feed.ref("trips"), .left, on: [c("trip_id")])
            // GTFS counts a day's service times from noon minus 12 hours, in the feed's zone.
            let date = day.map { build.call("coalesce", c("rt_start_date"), build.text(String($0.text.filter(\.isNumber)))) } ?? c("rt_start_date")
            let serviceDay = build.call("parse_time", date.plus(build.text("12")), build.text("%Y%m%d%H"))
                .minus(.literal(.duration(43_200_000_000), span))
            var plan = try build.derive(joined, [("scheduled", serviceDay.plus(build.call("coalesce", c("arrival_time"), c("departure_time"))))])
            plan = try build.derive(plan, [("delay", build.call("coalesce", c("observed").minus(c("scheduled")), c("reported_delay")))])
            plan = try build.derive(plan, [("on_time", c("delay").compared(.greaterEqual, .literal(.duration(DelaysVerb.early), span))
                .and(c("delay").compared(.lessEqual, .literal(.duration(DelaysVerb.late), span))))])
            var shown = ["trip_id", "route_id", "stop_sequence", "stop_id", "scheduled", "observed", "delay", "on_time"]
            if updates.schema.index(of: "stop_schedule") != nil { shown.append("stop_schedule") }
            plan = try build.select(plan, columns: shown)
            guard !keys.isEmpty else {
                return FeedPlan(plan: try build.sort(plan, [c("scheduled"), c("trip_id"), c("stop_sequence")]))
            }
            let share = build.call("if", c("on_time"), .literal(.double(1), span), .literal(.double(0), span))
            plan = try build.derive(plan, [("on_time_1", share)])
            plan = try build.summarize(plan, [(.count, nil, as: "updates"), (.avg, c("delay"), as: "mean_delay"), (.avg, c("on_time_1"), as: "on_time_share")],
                                       by: keys.map(\.groupKey))
            return FeedPlan(plan: try build.sort(plan, keys.map(\.expr)))
        }
    }
}
