/// The rows of `segments`: the day's stop times put in trip, run and stop_sequence order, each
/// stop paired with the next of its run, measured by `ShapeDistances`.
enum SegmentRows {
    static func make(_ d: Table, stops: Table, shapes: Table?, schema: Schema, notes: RunNotes?, cancel: CancellationFlag?) throws -> Table {
        let n = d.rowCount
        guard let trip = d.column("trip_id"), let sequence = d.column("stop_sequence"), let stop = d.column("stop_id"),
              case .string(let tripCodes) = trip.storage else {
            throw Diagnostic("segments reads trip_id, stop_sequence and stop_id of the stop times")
        }
        let run = d.column("run"), shape = d.column("shape_id"), travelled = d.column("shape_dist_traveled")
        func time(_ name: String, _ i: Int) -> Int64? {
            if case .duration(let v)? = d.column(name)?.value(at: i) { return v }
            return nil
        }
        func int(_ c: Column?, _ i: Int) -> Int64 { if case .int(let v)? = c?.value(at: i) { return v } else { return 0 } }
        let sequences = (0..<n).map { int(sequence, $0) }, runs = (0..<n).map { int(run, $0) }
        let order = (0..<n).filter { trip.isValid($0) }.sorted {
            (tripCodes.codes[$0], runs[$0], sequences[$0], $0) < (tripCodes.codes[$1], runs[$1], sequences[$1], $1)
        }
        var position: [String: ShapeDistances.Point] = [:]
        if let ids = stops.column("stop_id"), let lat = stops.column("stop_lat"), let lon = stops.column("stop_lon") {
            for i in 0..<stops.rowCount {
                if case .string(let id) = ids.value(at: i), let y = lat.value(at: i).doubleValue, let x = lon.value(at: i).doubleValue {
                    position[id] = ShapeDistances.Point(lat: y, lon: x)
                }
            }
        }
        let measure = ShapeDistances(shapes: shapes)
        // Runs of one trip stop at the same stops: measured once.
        var measured: [UInt32: [(metres: Double?, method: ShapeDistances.Method)]] = [:]
        var from: [Int32] = [], to: [Int32] = []
        var leaves: [Int64?] = [], arrives: [Int64?] = [], metres: [Double?] = [], methods: [String] = []
        var start = 0
        while start < order.count {
            if from.count & 0xFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            var end = start + 1
            let code = tripCodes.codes[order[start]]
            while end < order.count, tripCodes.codes[order[end]] == code, runs[order[end]] == runs[order[start]] { end += 1 }
            let rows = Array(order[start..<end])
            if measured[code] == nil {
                let points = rows.map { r -> ShapeDistances.Point? in
                    if case .string(let id) = stop.value(at: r) { return position[id] }
                    return nil
                }
                var shapeId: String? = nil
                if case .string(let s)? = shape?.value(at: rows[0]) { shapeId = s }
                measured[code] = measure.segments(shape: shapeId, stops: points, travelled: rows.map { travelled?.value(at: $0).doubleValue })
            }
            let distances = measured[code]!
            for k in 0..<max(0, rows.count - 1) where k < distances.count {
                let a = rows[k], b = rows[k + 1]
                from.append(Int32(a)); to.append(Int32(b))
                leaves.append(time("departure_time", a) ?? time("arrival_time", a))
                arrives.append(time("arrival_time", b) ?? time("departure_time", b))
                metres.append(distances[k].metres); methods.append(distances[k].method.rawValue)
            }
            start = end
        }
        return table(d, schema: schema, from: from, to: to, leaves: leaves, arrives: arrives, metres: metres, methods: methods,
                     unit: measure.unit, notes: notes)
    }

    private static func table(_ d: Table, schema: Schema, from: [Int32], to: [Int32], leaves: [Int64?], arrives: [Int64?],
                              metres: [Double?], methods: [String], unit: (metres: Double, name: String)?, notes: RunNotes?) -> Table {
        let m = from.count
        var runTime = [Int64?](repeating: nil, count: m), speed = [Double?](repeating: nil, count: m)
        var untimed = 0, instant = 0
        for k in 0..<m {
            guard let a = leaves[k], let b = arrives[k] else { untimed += 1; continue }
            runTime[k] = b - a
            if b > a, let x = metres[k] { speed[k] = x / (Double(b - a) / 1_000_000) * 3.6 } else if b <= a { instant += 1 }
        }
        var columns = SegmentsNode.carried.compactMap { d.column($0)?.gather(from) }
        columns.append(d.column("stop_sequence")!.gather(from).renamed("stop_sequence"))
        columns.append(d.column("stop_id")!.gather(from).renamed("from_stop_id"))
        columns.append(d.column("stop_id")!.gather(to).renamed("to_stop_id"))
        columns.append(Column.durations("departure_time", leaves, unit: .clock))
        columns.append(Column.durations("arrival_time", arrives, unit: .clock))
        columns.append(Column.doubles("distance_m", metres))
        columns.append(Column.durations("run_time", runTime, unit: .automatic))
        columns.append(Column.doubles("speed_kmh", speed))
        columns.append(Column(name: "measured", storage: .string(StringStorage(codes: methods.map { m in
            UInt32(["shape_dist_traveled", "shape", "straight"].firstIndex(of: m)!) }, dictionary: ["shape_dist_traveled", "shape", "straight"]))))
        if let notes {
            var ways: [String] = []
            for (method, words) in [("shape_dist_traveled", "by shape_dist_traveled" + (unit.map { ", read as \($0.name) (the shapes' lengths along their points say so)" } ?? "")),
                                    ("shape", "along shapes.txt's points"), ("straight", "straight from stop to stop (no shape)")] {
                let count = methods.filter { $0 == method }.count
                if count > 0 { ways.append("\(NumberText.grouped(count)) \(words)") }
            }
            if ways.count > 1 || methods.contains(where: { $0 != "straight" }) {
                notes.add("segments measured", "distance_m of " + NumberText.counted(m, "segment") + ": " + ways.joined(separator: ", "), as: .info)
            }
            if untimed > 0 {
                notes.add("segments untimed", "\(NumberText.counted(untimed, "segment")) \(untimed == 1 ? "has a stop" : "have stops") without times (no timepoints): no run time or speed", as: .info)
            }
            if instant > 0 {
                notes.add("segments instant", "\(NumberText.counted(instant, "segment")) \(instant == 1 ? "takes" : "take") no time by the timetable (times to the minute): no speed", as: .info)
            }
        }
        return Table(name: "segments", columns: columns, zone: d.zone, timeColumn: schema.timeColumn)
    }
}
