/// frequencies.txt expanded: each trip it repeats run once per headway_secs from each window's
/// start_time while the run starts before end_time (exact_times 0 and 1 alike: GTFS leaves the
/// exact minutes of a frequency-based service to the day, and analyses count its runs so).
/// A run's stop times are the trip's shifted by the same amount, so that its first stop time
/// is the run's start.
enum FrequencyExpansion {
    /// The most rows an expansion gives: a headway of a second over a long day would give
    /// hundreds of millions.
    static let rowLimit = 200_000_000

    struct Window { let start: Int64, end: Int64, headway: Int64 }

    /// The windows of each trip in frequencies.txt, in the order they start; rows without a
    /// positive headway or their times are left out (the load warned of them).
    static func windows(_ f: Table) -> [String: [Window]] {
        guard let trips = f.column("trip_id"), let starts = f.column("start_time"), let ends = f.column("end_time"),
              let headways = f.column("headway_secs") else { return [:] }
        var out: [String: [Window]] = [:]
        for i in 0..<f.rowCount {
            guard case .string(let trip) = trips.value(at: i), case .duration(let start) = starts.value(at: i),
                  case .duration(let end) = ends.value(at: i), let h = headways.value(at: i).doubleValue, h >= 1, h < 1e9 else { continue }
            out[trip, default: []].append(Window(start: start, end: end, headway: Int64(h) * 1_000_000))
        }
        return out.mapValues { $0.sorted { ($0.start, $0.end) < ($1.start, $1.end) } }
    }

    /// The timetable's rows, a repeating trip's once per run, with times shifted and a `run`
    /// column last.
    static func expand(_ t: Table, frequencies f: Table?, schema: Schema, cancel: CancellationFlag?) throws -> Table {
        let n = t.rowCount
        // A feed that repeats none of the day's trips: its stop times as they are.
        let windowsOf = f.map(windows) ?? [:]
        if windowsOf.isEmpty || !(t.column("trip_id").map { c in
            if case .string(let s) = c.storage { return s.dictionary.contains { windowsOf[$0] != nil } }
            return true
        } ?? false) {
            let none = Column(name: "run", storage: .int(Array(repeating: 0, count: n)), validity: Bitmap(count: n, value: false))
            return Table(name: t.name, columns: t.columns + [none], zone: t.zone, timeColumn: schema.timeColumn)
        }
        var rows: [Int32] = [], offsets: [Int64] = [], runs: [Int64] = []
        rows.reserveCapacity(n); offsets.reserveCapacity(n); runs.reserveCapacity(n)
        let arrival = t.columnIndex("arrival_time"), departure = t.columnIndex("departure_time")
        // Which trip each row is, as a code whose windows are looked up once.
        var repeating: [UInt32: [Window]] = [:], rowsOf: [UInt32: [Int32]] = [:]
        var tripCode: (Int) -> UInt32? = { _ in nil }
        if !windowsOf.isEmpty, let trips = t.column("trip_id"), case .string(let s) = trips.storage {
            for (code, id) in s.dictionary.enumerated() { if let w = windowsOf[id] { repeating[UInt32(code)] = w } }
            tripCode = { trips.isValid($0) ? s.codes[$0] : nil }
            for i in 0..<n { if let c = tripCode(i), repeating[c] != nil { rowsOf[c, default: []].append(Int32(i)) } }
        }
        func time(_ column: Int?, _ i: Int) -> Int64? {
            guard let column, case .duration(let v) = t.columns[column].value(at: i) else { return nil }
            return v
        }
        var done = Set<UInt32>()
        for i in 0..<n {
            if i & 0xFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            guard let c = tripCode(i), let windows = repeating[c] else {
                rows.append(Int32(i)); offsets.append(0); runs.append(0)
                continue
            }
            guard done.insert(c).inserted, let trip = rowsOf[c] else { continue }
            // The template starts at its earliest time: the first stop's departure.
            let first = trip.compactMap { r in time(departure, Int(r)) ?? time(arrival, Int(r)) }.min()
            guard let first else {
                for r in trip { rows.append(r); offsets.append(0); runs.append(0) }
                continue
            }
            var k: Int64 = 0
            for w in windows {
                var start = w.start
                while start < w.end {
                    k += 1
                    guard rows.count + trip.count <= rowLimit else {
                        throw Diagnostic("frequencies.txt repeats its trips into more than \(NumberText.grouped(rowLimit)) stop times",
                                         hint: "look at its headway_secs: a headway of a few seconds over a day makes millions of runs")
                    }
                    for r in trip { rows.append(r); offsets.append(start - first); runs.append(k) }
                    start += w.headway
                }
                if cancel?.isCancelled == true { throw CancellationError() }
            }
        }
        var columns = t.columns.map { $0.gather(rows) }
        for index in [arrival, departure].compactMap({ $0 }) {
            guard case .duration(var values) = columns[index].storage else { continue }
            for k in 0..<values.count where offsets[k] != 0 { values[k] &+= offsets[k] }
            columns[index].storage = .duration(values)
        }
        var valid = Bitmap(count: runs.count, value: true)
        for (k, r) in runs.enumerated() where r == 0 { valid[k] = false }
        columns.append(Column(name: "run", storage: .int(runs), validity: valid))
        return Table(name: t.name, columns: columns, zone: t.zone, timeColumn: schema.timeColumn)
    }
}
