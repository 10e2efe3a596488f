/// Two versions of a feed compared: routes and stops by id; services by the days they run;
/// and on each day, the trips that run in one feed and not the other, or in both with other
/// times (retimed) or other stops (rerouted). Trips are matched by trip_id.
struct FeedComparison {
    /// One feed as the comparison reads it.
    struct Feed {
        struct Trip { var route: String, service: String, stops: [String] = [], times: [Int64?] = [], windows: [[Int64]] = [] }
        var trips: [String: Trip] = [:]
        var stops: [String: (name: String, lat: Double?, lon: Double?)] = [:]
        var routes: [String: String] = [:]
        var calendar: ServiceCalendar
        var tripsOf: [String: [String]] = [:]

        init(_ t: [String: Table]) {
            calendar = ServiceCalendar(weekly: t["calendar"], dates: t["calendar_dates"])
            if let trips = t["trips"] {
                for i in 0..<trips.rowCount {
                    let id = text(trips, "trip_id", i)
                    guard !id.isEmpty else { continue }
                    self.trips[id] = Trip(route: text(trips, "route_id", i), service: text(trips, "service_id", i))
                    tripsOf[text(trips, "service_id", i), default: []].append(id)
                }
            }
            if let st = t["stop_times"] {
                var rows: [String: [(Int64, String, Int64?, Int64?)]] = [:]
                for i in 0..<st.rowCount {
                    rows[text(st, "trip_id", i), default: []].append((int(st, "stop_sequence", i) ?? 0, text(st, "stop_id", i),
                                                                       micros(st, "arrival_time", i), micros(st, "departure_time", i)))
                }
                for (id, visits) in rows where trips[id] != nil {
                    let sorted = visits.sorted { $0.0 < $1.0 }
                    trips[id]!.stops = sorted.map(\.1)
                    trips[id]!.times = sorted.flatMap { [$0.2, $0.3] }
                }
            }
            if let f = t["frequencies"] {
                for i in 0..<f.rowCount where trips[text(f, "trip_id", i)] != nil {
                    trips[text(f, "trip_id", i)]!.windows.append([micros(f, "start_time", i) ?? -1, micros(f, "end_time", i) ?? -1, int(f, "headway_secs", i) ?? -1])
                }
                for id in trips.keys { trips[id]!.windows.sort { $0.lexicographicallyPrecedes($1) } }
            }
            if let s = t["stops"] {
                for i in 0..<s.rowCount {
                    stops[text(s, "stop_id", i)] = (text(s, "stop_name", i), s.column("stop_lat")?.value(at: i).doubleValue, s.column("stop_lon")?.value(at: i).doubleValue)
                }
            }
            if let r = t["routes"] {
                for i in 0..<r.rowCount {
                    let short = text(r, "route_short_name", i), long = text(r, "route_long_name", i)
                    routes[text(r, "route_id", i)] = [short, long].filter { !$0.isEmpty }.joined(separator: " ")
                }
            }
        }
    }

    /// One row of the result.
    struct Change {
        var kind: String, change: String, id: String, route: String? = nil, day: Int64? = nil
        var detail: String? = nil, metres: Double? = nil, shift: Int64? = nil
    }

    let a: Feed, b: Feed
    var changes: [Change] = []

    init(_ a: Feed, _ b: Feed) { self.a = a; self.b = b }

    mutating func compareRoutes() {
        for id in Set(a.routes.keys).union(b.routes.keys).sorted(by: TextOrder.less) {
            switch (a.routes[id], b.routes[id]) {
            case (nil, let new?): changes.append(Change(kind: "route", change: "added", id: id, route: id, detail: new))
            case (let old?, nil): changes.append(Change(kind: "route", change: "removed", id: id, route: id, detail: old))
            case (let old?, let new?) where old != new:
                changes.append(Change(kind: "route", change: "renamed", id: id, route: id, detail: "\(old) → \(new)"))
            default: break
            }
        }
    }

    mutating func compareStops() {
        for id in Set(a.stops.keys).union(b.stops.keys).sorted(by: TextOrder.less) {
            guard let old = a.stops[id] else { changes.append(Change(kind: "stop", change: "added", id: id, detail: b.stops[id]!.name)); continue }
            guard let new = b.stops[id] else { changes.append(Change(kind: "stop", change: "removed", id: id, detail: old.name)); continue }
            if old.lat != new.lat || old.lon != new.lon {
                var metres: Double? = nil
                if let y1 = old.lat, let x1 = old.lon, let y2 = new.lat, let x2 = new.lon {
                    metres = TransitDistance.metres(lat1: y1, lon1: x1, lat2: y2, lon2: x2)
                }
                changes.append(Change(kind: "stop", change: "moved", id: id, detail: new.name, metres: metres))
            }
            if old.name != new.name { changes.append(Change(kind: "stop", change: "renamed", id: id, detail: "\(old.name) → \(new.name)")) }
        }
    }

    /// Services and trips, day by day.
    mutating func compareDays(_ days: ClosedRange<Int64>, cancel: CancellationFlag?) throws {
        // How each trip in both feeds differs, once.
        var differs: [String: (String, String?, Int64?)] = [:]
        for (id, old) in a.trips {
            guard let new = b.trips[id] else { continue }
            if old.stops != new.stops || old.route != new.route {
                let gone = old.stops.filter { !new.stops.contains($0) }, come = new.stops.filter { !old.stops.contains($0) }
                var words = gone.map { "-" + $0 } + come.map { "+" + $0 }
                if words.isEmpty && old.stops != new.stops { words = ["stops in another order"] }
                if old.route != new.route { words.insert("route \(old.route) → \(new.route)", at: 0) }
                differs[id] = ("rerouted", words.joined(separator: " "), nil)
            } else if old.times != new.times || old.windows != new.windows {
                let first = { (t: Feed.Trip) -> Int64? in t.windows.first?.first ?? t.times.compactMap { $0 }.min() }
                let shift = first(new).flatMap { n in first(old).map { n - $0 } }
                let detail = shift.map { $0 == 0 ? "the same first departure, other times after it" : "leaves \(TimeText.duration(first(old)!, unit: .clock)) → \(TimeText.duration(first(new)!, unit: .clock))" }
                differs[id] = ("retimed", old.windows != new.windows && old.times == new.times ? "other frequencies" : detail, shift)
            }
        }
        for day in days {
            if cancel?.isCancelled == true { throw CancellationError() }
            let sa = a.calendar.services(on: day), sb = b.calendar.services(on: day)
            for s in sa.subtracting(sb).sorted(by: TextOrder.less) { changes.append(Change(kind: "service", change: "removed", id: s, day: day)) }
            for s in sb.subtracting(sa).sorted(by: TextOrder.less) { changes.append(Change(kind: "service", change: "added", id: s, day: day)) }
            var runs: [String: (Bool, Bool)] = [:]
            for s in sa { for t in a.tripsOf[s] ?? [] { runs[t, default: (false, false)].0 = true } }
            for s in sb { for t in b.tripsOf[s] ?? [] { runs[t, default: (false, false)].1 = true } }
            var found: [Change] = []
            for (id, (inA, inB)) in runs {
                switch (inA, inB) {
                case (true, false): found.append(Change(kind: "trip", change: "removed", id: id, route: a.trips[id]?.route, day: day))
                case (false, true): found.append(Change(kind: "trip", change: "added", id: id, route: b.trips[id]?.route, day: day))
                default:
                    if let (change, detail, shift) = differs[id] {
                        found.append(Change(kind: "trip", change: change, id: id, route: b.trips[id]?.route, day: day, detail: detail, shift: shift))
                    }
                }
            }
            changes += found.sorted { ($0.route ?? "", $0.id) < ($1.route ?? "", $1.id) }
        }
    }
}

private func text(_ t: Table, _ column: String, _ i: Int) -> String {
    guard let c = t.column(column), case .string(let s) = c.value(at: i) else { return "" }
    return s
}

private func int(_ t: Table, _ column: String, _ i: Int) -> Int64? {
    if case .int(let v)? = t.column(column)?.value(at: i) { return v }
    return nil
}

private func micros(_ t: Table, _ column: String, _ i: Int) -> Int64? {
    if case .duration(let v)? = t.column(column)?.value(at: i) { return v }
    return nil
}

extension FeedComparison {
    /// The rows of `diff`, with notes of the days compared and when nothing changed.
    static func rows(_ node: FeedDiffNode, _ inputs: [Table], notes: RunNotes?, cancel: CancellationFlag?) throws -> Table {
        var comparison = FeedComparison(Feed(node.tables(0, inputs)), Feed(node.tables(1, inputs)))
        comparison.compareRoutes()
        comparison.compareStops()
        let first = min(comparison.a.calendar.first, comparison.b.calendar.first), last = max(comparison.a.calendar.last, comparison.b.calendar.last)
        let from = node.from ?? first, to = node.to ?? min(last, first + 366 * 20)
        if from <= to { try comparison.compareDays(from...to, cancel: cancel) }
        let zone = node.schema.zone
        func day(_ d: Int64) -> String { ServiceDay(days: d, span: SourceSpan(0, 0)).text }
        if from <= to {
            let which = node.from == nil ? " (every day either calendar names)" : ""
            notes?.add("diff days", "\(node.names[0]) → \(node.names[1]): trips and services compared on each day from \(day(from)) to \(day(to))\(which)", as: .info)
        }
        if comparison.changes.isEmpty { notes?.add("diff none", "\(node.names[0]) and \(node.names[1]) differ in no route, stop, service or trip", as: .info) }
        let c = comparison.changes
        var valid = Bitmap(count: c.count, value: true)
        for (k, change) in c.enumerated() where change.day == nil { valid[k] = false }
        let dates = Column(name: "date", storage: .timestamp(c.map { zone.instant(wallMicros: ($0.day ?? 0) * CivilTime.microsPerDay) }),
                           validity: valid, unit: .day)
        return Table(name: "diff", columns: [
            Column.texts("kind", c.map(\.kind)), Column.texts("change", c.map(\.change)), Column.texts("id", c.map(\.id)),
            Column.texts("route_id", c.map(\.route)), dates, Column.texts("detail", c.map(\.detail)),
            Column.doubles("metres", c.map(\.metres)), Column.durations("shift", c.map(\.shift), unit: .automatic),
        ], zone: zone, timeColumn: "date")
    }
}
