/// RAPTOR (Delling, Pajor and Werneck 2012) over a `TransitNetwork`: round k finds the
/// earliest arrival at each stop with k vehicles boarded, scanning only the routes through
/// stops improved in round k − 1. A rider who gets off at a stop may board again there after
/// the stop's change time, or walk once to another stop and board there on arriving; the
/// earliest arrival is kept with the fewest vehicles that reach it.
struct Raptor {
    /// What is known of a stop once the search is done.
    struct Label {
        /// Seconds of the service day; Int32.max where the stop is not reached.
        var arrival = Int32.max
        /// Vehicles boarded on the way (0 at an origin or on foot from one).
        var rides = 0
        /// The network's trip ridden last, or -1.
        var trip: Int32 = -1
    }

    let network: TransitNetwork
    let cancel: CancellationFlag?
    /// At most this many vehicles a journey: enough for any town.
    static let maxRides = 24

    /// The earliest arrival at every stop when leaving `origins` at `time` (seconds), no
    /// later than `limit`.
    func search(from origins: [Int32], at time: Int32, until limit: Int32) throws -> [Label] {
        let n = network.stopIds.count
        var best = [Label](repeating: Label(), count: n)
        // Earliest arrival by a vehicle (from which walks start), and when a rider can board.
        var byVehicle = [Int32](repeating: .max, count: n), ready = [Int32](repeating: .max, count: n)
        var vehicleTrip = [Int32](repeating: -1, count: n)
        var arrived: [Int32] = [], hasArrived = [Bool](repeating: false, count: n)
        var marked: [Int32] = []
        var isMarked = [Bool](repeating: false, count: n)
        func mark(_ s: Int32) { if !isMarked[Int(s)] { isMarked[Int(s)] = true; marked.append(s) } }
        for o in origins {
            best[Int(o)] = Label(arrival: time, rides: 0, trip: -1)
            ready[Int(o)] = time
            mark(o)
        }
        for o in origins {
            for w in network.walks[Int(o)] {
                let t = time &+ w.seconds
                guard t <= limit else { continue }
                if t < ready[Int(w.to)] { ready[Int(w.to)] = t; mark(w.to) }
                if t < best[Int(w.to)].arrival { best[Int(w.to)] = Label(arrival: t, rides: 0, trip: -1) }
            }
        }
        var start = [Int32](repeating: .max, count: network.routes.count)
        var scanned: [Int32] = []
        var round = 0
        while !marked.isEmpty && round < Self.maxRides {
            round += 1
            if cancel?.isCancelled == true { throw CancellationError() }
            // The routes through the stops marked, each from the first such stop on it.
            for s in marked {
                isMarked[Int(s)] = false
                for (r, k) in network.routesAt[Int(s)] {
                    if start[Int(r)] == .max { scanned.append(r) }
                    start[Int(r)] = min(start[Int(r)], k)
                }
            }
            marked.removeAll(keepingCapacity: true)
            for r in scanned {
                scan(network.routes[Int(r)], from: Int(start[Int(r)]), ready: ready, limit: limit, round: round,
                     best: &best, byVehicle: &byVehicle, vehicleTrip: &vehicleTrip, arrived: &arrived, hasArrived: &hasArrived)
                start[Int(r)] = .max
            }
            scanned.removeAll(keepingCapacity: true)
            // From each stop a vehicle reached earlier than ever: change there, or walk on.
            for s in arrived {
                hasArrived[Int(s)] = false
                let t = byVehicle[Int(s)]
                if let c = network.change[Int(s)], t &+ c < ready[Int(s)] { ready[Int(s)] = t &+ c; mark(s) }
                for w in network.walks[Int(s)] {
                    let u = t &+ w.seconds
                    guard u <= limit else { continue }
                    if u < ready[Int(w.to)] { ready[Int(w.to)] = u; mark(w.to) }
                    if u < best[Int(w.to)].arrival { best[Int(w.to)] = Label(arrival: u, rides: round, trip: vehicleTrip[Int(s)]) }
                }
            }
            arrived.removeAll(keepingCapacity: true)
        }
        return best
    }

    /// One route in one round: ride the earliest trip that can be boarded, and take an
    /// earlier one wherever a rider of the round before can catch it.
    private func scan(_ route: TransitNetwork.Route, from first: Int, ready: [Int32], limit: Int32, round: Int,
                      best: inout [Label], byVehicle: inout [Int32], vehicleTrip: inout [Int32], arrived: inout [Int32],
                      hasArrived: inout [Bool]) {
        var trip = -1
        for k in first..<route.stops.count {
            let s = Int(route.stops[k])
            if trip >= 0, route.alights[route.at(trip, k)] {
                let a = route.arrivals[route.at(trip, k)]
                if a < byVehicle[s], a <= limit {
                    if !hasArrived[s] { hasArrived[s] = true; arrived.append(Int32(s)) }
                    byVehicle[s] = a
                    vehicleTrip[s] = route.trips[trip]
                    if a < best[s].arrival { best[s] = Label(arrival: a, rides: round, trip: route.trips[trip]) }
                }
            }
            let r = ready[s]
            guard r != .max, trip < 0 || r <= route.departures[route.at(trip, k)] else { continue }
            // The first trip leaving at or after r, then the first of those that takes riders on here.
            var lo = 0, hi = trip < 0 ? route.tripCount : trip
            while lo < hi {
                let mid = (lo + hi) / 2
                if route.departures[route.at(mid, k)] < r { lo = mid + 1 } else { hi = mid }
            }
            let end = trip < 0 ? route.tripCount : trip
            while lo < end, !route.boards[route.at(lo, k)] { lo += 1 }
            if lo < end { trip = lo }
        }
    }
}
