import Foundation

/// A day's timetable as RAPTOR reads it (Delling, Pajor and Werneck, "Round-Based Public
/// Transit Routing", 2012): stops by number; routes, each a sequence of stops its trips all
/// serve in order, no trip overtaking another; and the walks between stops.
struct TransitNetwork {
    /// A route of RAPTOR: trips with the same stops in the same order, sorted so that a
    /// later trip never reaches a stop before an earlier one.
    struct Route {
        var stops: [Int32] = []
        /// Per trip, per stop of the route: times in seconds of the service day.
        var arrivals: [Int32] = [], departures: [Int32] = []
        /// Per trip, per stop: whether riders may get on, and off.
        var boards: [Bool] = [], alights: [Bool] = []
        /// Per trip: its row in `trips`.
        var trips: [Int32] = []
        var tripCount: Int { trips.count }
        func at(_ trip: Int, _ stop: Int) -> Int { trip * stops.count + stop }
    }

    var stopIds: [String] = []
    var stopNames: [String?] = []
    var positions: [(lat: Double, lon: Double)?] = []
    /// Whether a stop is a stop or platform (location_type 0 or empty), where riders wait,
    /// rather than a station, an entrance or a node of one, which walks do not go to.
    var boardable: [Bool] = []
    var stopIndex: [String: Int32] = [:]
    var routes: [Route] = []
    /// Each stop's routes, with where on the route it is.
    var routesAt: [[(route: Int32, position: Int32)]] = []
    /// trip_id, run and route_id of each trip.
    var trips: [(id: String, run: Int64?, route: String?)] = []
    /// Seconds a rider needs to change vehicles at each stop; nil where transfers.txt says no
    /// change is possible there.
    var change: [Int32?] = []
    /// Walks from each stop: to which stop, in how many seconds.
    var walks: [[(to: Int32, seconds: Int32)]] = []
    /// Stop times left out for having no time (stops that are no timepoints).
    var untimed = 0

    mutating func stop(_ id: String) -> Int32 {
        if let k = stopIndex[id] { return k }
        let k = Int32(stopIds.count)
        stopIndex[id] = k; stopIds.append(id); stopNames.append(nil); positions.append(nil); boardable.append(true)
        return k
    }
}

extension TransitNetwork {
    /// The options that shape the network: the change time where transfers.txt says none,
    /// and walking between stops near each other.
    struct Options {
        var change: Int32 = 0
        var walkMetres: Double? = nil
        var walkSpeed: Double = 1.3
    }

    /// From the day's stop times (trip_id, run, route_id, stop_id, stop_sequence,
    /// arrival_time, departure_time, pickup_type, drop_off_type), stops.txt's rows (stop_id,
    /// stop_name, stop_lat, stop_lon, location_type) and transfers.txt's (from_stop_id, to_stop_id,
    /// transfer_type, min_transfer_time).
    init(departures d: Table, stops: Table, transfers: Table?, options: Options, cancel: CancellationFlag?) throws {
        if let ids = stops.column("stop_id") {
            let names = stops.column("stop_name"), lat = stops.column("stop_lat"), lon = stops.column("stop_lon")
            let kind = stops.column("location_type")
            for i in 0..<stops.rowCount {
                guard case .string(let id) = ids.value(at: i) else { continue }
                let k = Int(stop(id))
                if case .int(let t)? = kind?.value(at: i), t != 0 { boardable[k] = false }
                if case .string(let name)? = names?.value(at: i) { stopNames[k] = name }
                if let y = lat?.value(at: i).doubleValue, let x = lon?.value(at: i).doubleValue { positions[k] = (y, x) }
            }
        }
        try buildRoutes(d, cancel: cancel)
        routesAt = Array(repeating: [], count: stopIds.count)
        for (r, route) in routes.enumerated() {
            for (k, s) in route.stops.enumerated() { routesAt[Int(s)].append((Int32(r), Int32(k))) }
        }
        buildWalks(transfers, options, cancel: cancel)
    }

    /// Trips grouped by their stops; each group split where a trip would overtake another.
    private mutating func buildRoutes(_ d: Table, cancel: CancellationFlag?) throws {
        guard let tripColumn = d.column("trip_id"), case .string(let tripText) = tripColumn.storage,
              let stopColumn = d.column("stop_id"), case .string(let stopText) = stopColumn.storage, d.column("stop_sequence") != nil else {
            throw Diagnostic("travel times read trip_id, stop_id and stop_sequence of the stop times")
        }
        let n = d.rowCount
        let sequence = Self.ints(d.column("stop_sequence"), n), run = Self.ints(d.column("run"), n)
        let arrival = Self.ints(d.column("arrival_time"), n), departure = Self.ints(d.column("departure_time"), n)
        let pickup = Self.ints(d.column("pickup_type"), n), dropOff = Self.ints(d.column("drop_off_type"), n)
        var routeText: StringStorage? = nil
        if case .string(let r)? = d.column("route_id")?.storage { routeText = r }
        let routeColumn = d.column("route_id")
        // The rows of each run of a trip: a trip's code and its run make one key.
        var runOf: [Int64: Int] = [:], rowsOf: [[Int32]] = []
        for i in 0..<n {
            if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            guard tripColumn.isValid(i) else { continue }
            let key = Int64(tripText.codes[i]) << 32 | Int64(UInt32(truncatingIfNeeded: (run[i] ?? -1) &+ 1))
            if let k = runOf[key] { rowsOf[k].append(Int32(i)); continue }
            runOf[key] = rowsOf.count
            rowsOf.append([Int32(i)])
            let route = routeText.flatMap { r in routeColumn!.isValid(i) ? r.dictionary[Int(r.codes[i])] : nil }
            trips.append((tripText.dictionary[Int(tripText.codes[i])], run[i], route))
        }
        // Each stop_id's number, found once per distinct text.
        var stopOfCode = [Int32](repeating: -1, count: stopText.dictionary.count)
        // Each run's timed stops in order: stop, arrival, departure, on, off.
        struct Visit { let stop: Int32, arrives: Int32, leaves: Int32, on: Bool, off: Bool }
        var groups: [[Int32]: [(trip: Int32, visits: [Visit])]] = [:]
        for (t, rows) in rowsOf.enumerated() {
            if t & 0xFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            let ordered = rows.sorted { (sequence[Int($0)] ?? 0, $0) < (sequence[Int($1)] ?? 0, $1) }
            var visits: [Visit] = []
            visits.reserveCapacity(ordered.count)
            for r in ordered {
                let i = Int(r)
                guard stopColumn.isValid(i) else { continue }
                let a = arrival[i].map(Self.seconds), l = departure[i].map(Self.seconds)
                guard let arrives = a ?? l, let leaves = l ?? a else { untimed += 1; continue }
                let code = Int(stopText.codes[i])
                if stopOfCode[code] < 0 { stopOfCode[code] = stop(stopText.dictionary[code]) }
                visits.append(Visit(stop: stopOfCode[code], arrives: arrives, leaves: leaves, on: pickup[i] != 1, off: dropOff[i] != 1))
            }
            guard visits.count >= 2 else { continue }
            groups[visits.map(\.stop), default: []].append((Int32(t), visits))
        }
        for (stops, members) in groups.sorted(by: { $0.value[0].trip < $1.value[0].trip }) {
            let sorted = members.sorted { ($0.visits[0].leaves, $0.trip) < ($1.visits[0].leaves, $1.trip) }
            // Each trip joins the first route whose last trip it does not overtake anywhere.
            var split: [Route] = []
            for member in sorted {
                let fits = split.firstIndex { r in
                    let last = r.tripCount - 1
                    return member.visits.indices.allSatisfy { k in
                        member.visits[k].arrives >= r.arrivals[r.at(last, k)] && member.visits[k].leaves >= r.departures[r.at(last, k)]
                    }
                }
                let k = fits ?? split.count
                if fits == nil { split.append(Route(stops: stops)) }
                split[k].trips.append(member.trip)
                for v in member.visits {
                    split[k].arrivals.append(v.arrives); split[k].departures.append(v.leaves)
                    split[k].boards.append(v.on); split[k].alights.append(v.off)
                }
            }
            routes += split
        }
    }

    /// Seconds of a service time given in microseconds.
    static func seconds(_ micros: Int64) -> Int32 { Int32(clamping: CivilTime.floorDiv(micros, 1_000_000)) }

    /// A column's whole numbers (integers, or durations and timestamps in microseconds), read
    /// straight from its storage; nil where a row has none, or the column is missing.
    static func ints(_ c: Column?, _ n: Int) -> [Int64?] {
        guard let c else { return Array(repeating: nil, count: n) }
        switch c.storage {
        case .int(let a), .duration(let a), .timestamp(let a):
            guard c.validity != nil else { return a.map { $0 } }
            return a.indices.map { c.isValid($0) ? a[$0] : nil }
        default:
            return (0..<n).map { i in c.value(at: i).doubleValue.map { Int64($0) } }
        }
    }

    /// The seconds a change takes at each stop, and the walks: transfers.txt's between two
    /// stops (its min_transfer_time, else the walk at the walking speed), and with a walking
    /// distance every pair of stops at most that far apart; a pair transfers.txt says cannot
    /// be changed between (type 3) is no walk.
    private mutating func buildWalks(_ transfers: Table?, _ options: Options, cancel: CancellationFlag?) {
        let n = stopIds.count
        change = Array(repeating: options.change, count: n)
        var walk: [Int64: Int32] = [:], barred = Set<Int64>()
        func key(_ a: Int32, _ b: Int32) -> Int64 { Int64(a) << 32 | Int64(b) }
        func on(_ a: Int32, _ b: Int32) -> Int32? {
            guard let p = positions[Int(a)], let q = positions[Int(b)] else { return nil }
            return Int32(clamping: Int64((TransitDistance.metres(lat1: p.lat, lon1: p.lon, lat2: q.lat, lon2: q.lon) / options.walkSpeed).rounded(.up)))
        }
        if let walkMetres = options.walkMetres {
            let places = positions.enumerated().map { boardable[$0.offset] ? $0.element : nil }
            for (a, b, metres) in Self.pairs(places, within: walkMetres) where a != b {
                walk[key(a, b)] = Int32(clamping: Int64((metres / options.walkSpeed).rounded(.up)))
            }
        }
        if let t = transfers, let from = t.column("from_stop_id"), let to = t.column("to_stop_id") {
            let kind = t.column("transfer_type"), minimum = t.column("min_transfer_time")
            for i in 0..<t.rowCount {
                guard case .string(let f) = from.value(at: i), case .string(let g) = to.value(at: i),
                      let a = stopIndex[f], let b = stopIndex[g] else { continue }
                var type: Int64 = 0
                if case .int(let v)? = kind?.value(at: i) { type = v }
                var seconds: Int32? = nil
                if let m = minimum?.value(at: i).doubleValue, m >= 0 { seconds = Int32(clamping: Int64(m.rounded(.up))) }
                if a == b {
                    change[Int(a)] = type == 3 ? nil : type == 1 ? 0 : type == 2 ? (seconds ?? options.change) : options.change
                } else if type == 3 {
                    barred.insert(key(a, b))
                } else if let s = seconds ?? on(a, b) {
                    walk[key(a, b)] = s
                }
            }
        }
        walks = Array(repeating: [], count: n)
        for (k, s) in walk.sorted(by: { $0.key < $1.key }) where !barred.contains(k) {
            walks[Int(k >> 32)].append((Int32(truncatingIfNeeded: k), s))
        }
    }

    /// Pairs of stops at most `metres` apart, each way, found through a grid of cells about
    /// that size so that stops far apart are never measured.
    static func pairs(_ positions: [(lat: Double, lon: Double)?], within metres: Double) -> [(Int32, Int32, Double)] {
        // A little over the distance: the plane of the cells is not quite the sphere's.
        let cell = max(metres, 1) * 1.1 / 111_000
        var grid: [Int64: [Int32]] = [:]
        func key(_ x: Int64, _ y: Int64) -> Int64 { x &* 4_000_003 &+ y }
        func cellOf(_ p: (lat: Double, lon: Double)) -> (Int64, Int64) {
            (Int64((p.lon * cos(p.lat * .pi / 180) / cell).rounded(.down)), Int64((p.lat / cell).rounded(.down)))
        }
        for (k, p) in positions.enumerated() { if let p { let (x, y) = cellOf(p); grid[key(x, y), default: []].append(Int32(k)) } }
        var out: [(Int32, Int32, Double)] = []
        for (k, p) in positions.enumerated() {
            guard let p else { continue }
            let (x, y) = cellOf(p)
            for dx in -1...1 { for dy in -1...1 {
                for other in grid[key(x + Int64(dx), y + Int64(dy))] ?? [] where Int(other) != k {
                    let q = positions[Int(other)]!
                    let d = TransitDistance.metres(lat1: p.lat, lon1: p.lon, lat2: q.lat, lon2: q.lon)
                    if d <= metres { out.append((Int32(k), other, d)) }
                }
            } }
        }
        return out
    }
}
