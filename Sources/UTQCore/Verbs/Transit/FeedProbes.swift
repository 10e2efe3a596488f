/// What the transit verbs need of a feed's rows, asked as probes: its calendar, its trips per
/// service (for the busiest day), whether its trips name their vehicles, and the counts their
/// notes give. Each answer is nil until the probe has run; each probe is asked once per
/// command whichever verb asks it, and runs wherever the feed is (memory or a database).
struct FeedProbes {
    let feed: FeedTables
    let build: PlanBuilder
    var binder: Binder { build.binder }

    /// The rows of a probe that reads one of the feed's files, or nil until it has run.
    /// `purpose` says what it finds; with the file, it tells the probe apart.
    func ask(_ file: String, _ purpose: String, _ make: (LogicalPlan) throws -> LogicalPlan) throws -> Table? {
        let plan = try make(try feed.scan(file, build))
        return binder.ask(Probe(key: "\(feed.ref(file)): \(purpose)", purpose: purpose, plan: plan)).answer
    }

    /// The service calendar, or nil until the probes that read it have answered. A feed
    /// without either calendar file has no days of service to tell.
    func calendar() throws -> ServiceCalendar? {
        guard feed.has("calendar") || feed.has("calendar_dates") else {
            throw Diagnostic("\(feed.name) has neither calendar.txt nor calendar_dates.txt, so no day of service can be told")
        }
        // A calendar made anew with `let` that lost its GTFS columns says so, rather than
        // being read as naming no day.
        try feed.require("calendar", ["service_id", "start_date", "end_date"] + ServiceDay.weekdays, build)
        try feed.require("calendar_dates", ["service_id", "date", "exception_type"], build)
        // Both are asked before either answers, so one round of probes reads the calendar.
        var weekly: Table? = nil, dates: Table? = nil
        var waiting = false
        if feed.has("calendar") {
            let columns = (["service_id", "start_date", "end_date"] + ServiceDay.weekdays).filter { feed.has("calendar", column: $0) }
            weekly = try ask("calendar", "the rows of \(feed.ref("calendar"))", { try build.select($0, columns: columns) })
            waiting = waiting || weekly == nil
        }
        if feed.has("calendar_dates") {
            let columns = ["service_id", "date", "exception_type"].filter { feed.has("calendar_dates", column: $0) }
            dates = try ask("calendar_dates", "the rows of \(feed.ref("calendar_dates"))", { try build.select($0, columns: columns) })
            waiting = waiting || dates == nil
        }
        return waiting ? nil : ServiceCalendar(weekly: weekly, dates: dates)
    }

    /// Trips per service_id, or nil until the probe has answered.
    func tripsPerService() throws -> [String: Int]? {
        guard let t = try ask("trips", "the trips of each service_id in \(feed.ref("trips"))", { try build.summarize($0, [(.count, nil, as: "trips")], by: [build.key("service_id")]) })
        else { return nil }
        var tripsOf: [String: Int] = [:]
        for i in 0..<t.rowCount {
            if case .int(let n) = t.columns[1].value(at: i) { tripsOf[t.columns[0].value(at: i).plainText, default: 0] += Int(n) }
        }
        return tripsOf
    }

    /// Whether every trip names its block (the vehicle that runs it), or nil until the probe
    /// has answered.
    func everyTripNamesItsBlock() throws -> Bool? {
        guard feed.has("trips", column: "block_id") else { return false }
        let unnamed = build.column("block_id").isNull.or(build.call("text", build.column("block_id")).compared(.equal, build.text("")))
        guard let t = try ask("trips", "whether every trip of \(feed.ref("trips")) names its block", {
            try build.summarize(try build.derive($0, [("unnamed", build.call("if", unnamed, build.int(1), build.int(0)))]),
                                [(.count, nil, as: "trips"), (.sum, build.column("unnamed"), as: "unnamed")], by: [])
        }) else { return nil }
        guard t.rowCount == 1, case .int(let trips) = t.columns[0].value(at: 0) else { return false }
        if case .int(let unnamedTrips) = t.columns[1].value(at: 0) { return trips > 0 && unnamedTrips == 0 }
        return false
    }

    /// Stop times without a departure time (stops that are no timepoints), or nil until the
    /// probe has answered.
    func untimedStopTimes() throws -> Int? {
        guard feed.has("stop_times", column: "departure_time") else { return 0 }
        return try count(try ask("stop_times", "the stop times of \(feed.ref("stop_times")) without a departure time", {
            try build.summarize(try build.filter($0, build.column("departure_time").isNull), [(.count, nil, as: "stop_times")], by: [])
        }))
    }

    /// Trips of trips.txt with a direction_id, or nil until the probe has answered (0 when
    /// the column is missing).
    func tripsWithDirection() throws -> Int? {
        guard feed.has("trips", column: "direction_id") else { return 0 }
        return try count(try ask("trips", "the trips of \(feed.ref("trips")) with a direction_id", {
            try build.summarize(try build.filter($0, build.column("direction_id").isNotNull), [(.count, nil, as: "trips")], by: [])
        }))
    }

    /// Trips that repeat by frequencies.txt, or nil until the probe has answered.
    func repeatingTrips() throws -> Int? {
        guard feed.has("frequencies", column: "trip_id") else { return 0 }
        return try count(try ask("frequencies", "the trips \(feed.ref("frequencies")) repeats", {
            try build.summarize(try build.summarize($0, [], by: [build.key("trip_id")]), [(.count, nil, as: "trips")], by: [])
        }))
    }

    /// Points of shapes.txt, or nil until the probe has answered.
    func shapePoints() throws -> Int? {
        guard feed.has("shapes") else { return 0 }
        return try count(try ask("shapes", "the points of \(feed.ref("shapes"))", { try build.summarize($0, [(.count, nil, as: "points")], by: []) }))
    }

    private func count(_ t: Table?) throws -> Int? {
        guard let t else { return nil }
        if t.rowCount == 1, case .int(let n) = t.columns[0].value(at: 0) { return Int(n) }
        return 0
    }

    // MARK: the day

    /// The day a verb works on: the one written (checked against the calendar), else the
    /// feed's busiest; nil until the probes it needs have answered.
    func day(_ written: ServiceDay?, verb: String) throws -> ServiceDay? {
        // What the busiest day needs is asked with the calendar, in the same round.
        let trips = written == nil ? try tripsPerService() : nil
        guard let calendar = try calendar() else { return written }
        if let written {
            try calendar.checkInRange(written, feed: feed.name)
            return written
        }
        guard let trips else { return nil }
        guard let busiest = calendar.busiest(tripsPerService: trips) else {
            throw Diagnostic("\(feed.name)'s calendar names no day on which a trip runs, so \(verb) needs a date",
                             at: build.span, hint: "as in: \(feed.name) | \(verb) 2007-06-04")
        }
        return ServiceDay(days: busiest.days, span: build.span, busiestTrips: busiest.trips)
    }

    /// Said when no day was written: which day was taken and why.
    func choiceNote(_ day: ServiceDay) -> [String] {
        guard let trips = day.busiestTrips else { return [] }
        return ["no date given: \(day.weekdayName) \(day.text) is \(feed.name)'s busiest day (\(NumberText.counted(trips, "trip"))); write on DATE for another"]
    }

    /// Why no trips run on the day, said when the answer has no rows.
    func whyNone(_ day: ServiceDay?) throws -> [String] {
        guard let day, let calendar = try calendar() else { return [] }
        return calendar.whyNone(on: day).map { [$0] } ?? []
    }

    /// Trips that repeat by frequencies.txt are a timetable run again every headway_secs;
    /// the verbs count each run as a trip of its own, and say so.
    func repeatsNote() throws -> [String] {
        guard let n = try repeatingTrips(), n > 0 else { return [] }
        return ["\(NumberText.counted(n, "trip")) of \(feed.name) repeat by frequencies.txt; each of their runs counts as a trip"]
    }

    /// Stops that are no timepoints have no departure time; say how many are left out.
    func untimedNote() throws -> [String] {
        guard let n = try untimedStopTimes(), n > 0 else { return [] }
        return ["\(NumberText.counted(n, "stop time")) of \(feed.name) \(n == 1 ? "has" : "have") no departure time (stops that are no timepoints) and \(n == 1 ? "is" : "are") left out"]
    }

    /// A plan the verb cannot make until probes answer: explain shows what it waits for.
    func pending(_ verb: String, day: ServiceDay?) -> FeedPlan {
        let waiting = binder.requests.all.filter { binder.context.answers[$0.key] == nil }.count
        let name = verb.hasSuffix(" on") ? String(verb.dropLast(3)) : verb
        let why = day == nil ? "no date is given, so the day is \(feed.name)'s busiest, found by " : "made once "
        return FeedPlan(plan: LogicalPlan(PendingNode(nil, stepName: name,
            description: "\(feed.name) | \(name): " + why + (waiting == 1 ? "the probe below" : "the \(waiting) probes below"))))
    }
}
