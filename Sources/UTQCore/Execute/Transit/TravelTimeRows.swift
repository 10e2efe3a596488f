/// The rows of `travel times`: RAPTOR from the origins at the time asked, or once for each
/// time within the window at which a vehicle can be caught from them (the shortest travel
/// time over the window, the fewest transfers and then the earliest departure on a tie).
enum TravelTimeRows {
    static func make(_ departures: Table, stops: Table, transfers: Table?, question q: TravelTimesNode.Question, schema: Schema,
                     notes: RunNotes?, cancel: CancellationFlag?) throws -> Table {
        let options = TransitNetwork.Options(change: q.change, walkMetres: q.walkMetres, walkSpeed: q.walkSpeed)
        let network = try TransitNetwork(departures: departures, stops: stops, transfers: transfers, options: options, cancel: cancel)
        let origins = q.origins.compactMap { network.stopIndex[$0] }
        let raptor = Raptor(network: network, cancel: cancel)
        func limit(_ t: Int32) -> Int32 { min(q.until ?? .max, q.within.map { t &+ $0 } ?? .max) }
        // Per stop: the departure and the label of its shortest journey.
        var best: [(leave: Int32, label: Raptor.Label)?] = Array(repeating: nil, count: network.stopIds.count)
        for t in times(network, origins, q) {
            let labels = try raptor.search(from: origins, at: t, until: limit(t))
            for (s, label) in labels.enumerated() where label.arrival != .max {
                let candidate = (label.arrival - t, label.rides, t)
                if let b = best[s], (b.label.arrival - b.leave, b.label.rides, b.leave) <= candidate { continue }
                best[s] = (t, label)
            }
        }
        if network.untimed > 0 {
            notes?.add("travel untimed", "\(NumberText.counted(network.untimed, "stop time")) without times (stops that are no timepoints) \(network.untimed == 1 ? "is" : "are") no place to get on or off", as: .info)
        }
        if !network.routes.isEmpty, !best.contains(where: { ($0?.label.rides ?? 0) > 0 }) {
            let walked = best.filter { $0 != nil }.count > origins.count
            notes?.add("travel nothing", walked ? "no stop is reached sooner by a vehicle than on foot from \(q.origins.joined(separator: ", ")) then"
                                                : "no vehicle can be caught from \(q.origins.joined(separator: ", ")) then", as: .info)
        }
        return table(network, best, window: q.leaveUntil != nil, schema: schema)
    }

    /// The times to leave at: the one asked, or over a window every time a vehicle leaves an
    /// origin (or a stop a walk away, less the walk) that can be boarded, and the window's start.
    static func times(_ network: TransitNetwork, _ origins: [Int32], _ q: TravelTimesNode.Question) -> [Int32] {
        guard let end = q.leaveUntil else { return [q.leave] }
        var out: Set<Int32> = [q.leave]
        for o in origins {
            for (stop, walk) in [(o, Int32(0))] + network.walks[Int(o)].map({ ($0.to, $0.seconds) }) {
                for (r, k) in network.routesAt[Int(stop)] {
                    let route = network.routes[Int(r)]
                    for trip in 0..<route.tripCount where route.boards[route.at(trip, Int(k))] {
                        let t = route.departures[route.at(trip, Int(k))] &- walk
                        if t >= q.leave && t <= end { out.insert(t) }
                    }
                }
            }
        }
        return out.sorted(by: >)
    }

    static func table(_ network: TransitNetwork, _ best: [(leave: Int32, label: Raptor.Label)?], window: Bool, schema: Schema) -> Table {
        var ids: [String] = [], names: [String?] = [], leaves: [Int64?] = [], arrivals: [Int64?] = [], travel: [Int64?] = []
        var transfers: [Int64?] = [], trips: [String?] = [], runs: [Int64?] = [], routes: [String?] = []
        for (s, b) in best.enumerated() {
            guard let b else { continue }
            ids.append(network.stopIds[s]); names.append(network.stopNames[s])
            leaves.append(Int64(b.leave) * 1_000_000)
            arrivals.append(Int64(b.label.arrival) * 1_000_000)
            travel.append(Int64(b.label.arrival - b.leave) * 1_000_000)
            transfers.append(b.label.rides > 0 ? Int64(b.label.rides - 1) : nil)
            let trip = b.label.trip >= 0 ? network.trips[Int(b.label.trip)] : nil
            trips.append(trip?.id); runs.append(trip?.run); routes.append(trip?.route)
        }
        var columns = [Column.texts("stop_id", ids), Column.texts("stop_name", names)]
        if window { columns.append(Column.durations("departure_time", leaves, unit: .clock)) }
        columns += [Column.durations("arrival_time", arrivals, unit: .clock), Column.durations("travel_time", travel, unit: .automatic),
                    Column.ints("transfers", transfers), Column.texts("trip_id", trips), Column.ints("run", runs), Column.texts("route_id", routes)]
        return Table(name: "travel times", columns: columns, zone: schema.zone, timeColumn: schema.timeColumn)
    }
}
