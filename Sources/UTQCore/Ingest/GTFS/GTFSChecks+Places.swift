import Foundation

/// Stops and shapes: where things are, and what refers to them.
extension GTFSChecks {
    /// Two stops closer than this are probably one stop given twice.
    static let tooCloseMetres = 2.0

    mutating func checkStops() {
        guard let stops = feed["stops.txt"] else { return }
        stopIds = uniqueIds(stops, "stop_id")
        references(stops, "parent_station", to: stopIds, in: "stops.txt")
        if feed["levels.txt"] != nil {
            references(stops, "level_id", to: feed["levels.txt"]?.text("level_id")?.values(), in: "levels.txt")
        }
        let types = stops.numbers("location_type")
        let lats = stops.numbers("stop_lat"), lons = stops.numbers("stop_lon")
        var points: [(row: Int, lat: Double, lon: Double)] = []
        for row in 0..<stops.table.rowCount {
            let type = types?.int(row) ?? 0
            if !(0...4).contains(type) {
                report.add(stops, "location_type", code: .unexpectedEnumValue, row: row,
                           "location_type is \(type); GTFS defines 0 (stop), 1 (station), "
                           + "2 (entrance), 3 (generic node) and 4 (boarding area)")
            }
            // Generic nodes and boarding areas may go without a position.
            let needsPosition = type <= 2
            if let point = position(stops, row, lats?.double(row), lons?.double(row), "stop_lat", "stop_lon",
                                    required: needsPosition && lats != nil && lons != nil) {
                if type == 0 { points.append((row, point.lat, point.lon)) }
            }
        }
        stopsTooClose(stops, points)
    }

    /// A position that is on the earth, or nil with a warning saying what is wrong.
    private mutating func position(_ file: GTFSFileTable, _ row: Int, _ lat: Double?, _ lon: Double?,
                                   _ latName: String, _ lonName: String, required: Bool) -> (lat: Double, lon: Double)? {
        guard let lat, let lon else {
            if required {
                report.add(file, "no position", code: .missingRequiredField, row: row,
                           "no \(lat == nil ? latName : lonName); GTFS requires a position here")
            }
            return nil
        }
        if !(-90...90).contains(lat) || !(-180...180).contains(lon) {
            report.add(file, "bad position", code: .pointNearOrigin, row: row,
                       "\(latName) \(NumberText.double(lat)), \(lonName) \(NumberText.double(lon)) "
                       + "is not on the earth (latitude −90…90, longitude −180…180; are they swapped?)")
            return nil
        }
        if lat == 0 && lon == 0 {
            report.add(file, "bad position", code: .pointNearOrigin, row: row,
                       "\(latName) and \(lonName) are 0, 0 (in the sea off Africa): probably a missing position")
            return nil
        }
        return (lat, lon)
    }

    /// Pairs of stops less than two metres apart, found through a grid of about 11 m cells.
    private mutating func stopsTooClose(_ stops: GTFSFileTable, _ points: [(row: Int, lat: Double, lon: Double)]) {
        let ids = stops.text("stop_id")
        func cell(_ lat: Double, _ lon: Double) -> Int64 {
            Int64((lat * 10_000).rounded(.down)) * 4_000_000 + Int64((lon * 10_000).rounded(.down))
        }
        var grid: [Int64: [Int]] = [:]
        for (k, p) in points.enumerated() { grid[cell(p.lat, p.lon), default: []].append(k) }
        for (k, p) in points.enumerated() {
            for dLat in [-1.0, 0, 1] {
                for dLon in [-1.0, 0, 1] {
                    for j in grid[cell(p.lat + dLat / 10_000, p.lon + dLon / 10_000)] ?? [] where j < k {
                        let q = points[j]
                        let metres = Self.metres(p.lat, p.lon, q.lat, q.lon)
                        guard metres < Self.tooCloseMetres else { continue }
                        let a = ids?.text(q.row) ?? "?", b = ids?.text(p.row) ?? "?"
                        report.add(stops, "stops too close", code: .stopsTooClose, row: p.row,
                                   "stops \(a) and \(b) are \(NumberText.fixed(metres, decimals: 1)) m "
                                   + "apart; one stop given twice? (\(a) is on line \(stops.line(q.row) ?? 0))")
                    }
                }
            }
        }
    }

    /// Distance on the earth's surface (equirectangular: exact enough at a few metres).
    static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_000.0, rad = Double.pi / 180
        let x = (lon2 - lon1) * rad * cos((lat1 + lat2) / 2 * rad)
        let y = (lat2 - lat1) * rad
        return (x * x + y * y).squareRoot() * r
    }

    mutating func checkShapes() {
        guard let shapes = feed["shapes.txt"] else { return }
        let ids = shapes.text("shape_id"), sequences = shapes.numbers("shape_pt_sequence")
        let lats = shapes.numbers("shape_pt_lat"), lons = shapes.numbers("shape_pt_lon")
        // Shapes can have millions of points: key them by the id's code, not by text.
        struct Point: Hashable { let shape: Int; let sequence: Int64 }
        var seen: [Point: Int] = [:]
        for row in 0..<shapes.table.rowCount {
            _ = position(shapes, row, lats?.double(row), lons?.double(row), "shape_pt_lat", "shape_pt_lon",
                         required: lats != nil && lons != nil)
            guard let ids, let code = ids.code(row), let s = sequences?.int(row) else { continue }
            let key = Point(shape: code, sequence: s)
            if let first = seen[key] {
                report.add(shapes, "repeated shape_pt_sequence", code: .duplicateKey, row: row,
                           "shape \(ids.dictionary[code]) has shape_pt_sequence \(s) twice"
                           + (shapes.line(first).map { " (also on line \($0))" } ?? ""))
            } else {
                seen[key] = row
            }
        }
    }

    /// Transfers, pathways and fares refer to stops, routes, trips and zones.
    mutating func checkOtherReferences() {
        if let transfers = feed["transfers.txt"] {
            for side in ["from", "to"] {
                references(transfers, "\(side)_stop_id", to: stopIds, in: "stops.txt")
                references(transfers, "\(side)_route_id", to: routeIds, in: "routes.txt")
                references(transfers, "\(side)_trip_id", to: tripIds, in: "trips.txt")
            }
        }
        if let pathways = feed["pathways.txt"] {
            _ = uniqueIds(pathways, "pathway_id")
            references(pathways, "from_stop_id", to: stopIds, in: "stops.txt", required: "in every row")
            references(pathways, "to_stop_id", to: stopIds, in: "stops.txt", required: "in every row")
        }
        if let levels = feed["levels.txt"] { _ = uniqueIds(levels, "level_id") }
        let fareIds = feed["fare_attributes.txt"].flatMap { uniqueIds($0, "fare_id") }
        if let rules = feed["fare_rules.txt"] {
            references(rules, "fare_id", to: fareIds, in: "fare_attributes.txt", required: "in every row")
            references(rules, "route_id", to: routeIds, in: "routes.txt")
            let zones = feed["stops.txt"]?.text("zone_id")?.values() ?? []
            for column in ["origin_id", "destination_id", "contains_id"] {
                references(rules, column, to: zones, in: "the zone_id of any stop in stops.txt")
            }
        }
    }

    /// Stops no trip serves, routes without trips, trips without stop times: not wrong,
    /// but often the sign of a feed cut short.
    mutating func checkUnused() {
        if let stops = feed["stops.txt"], let ids = stops.text("stop_id"),
           let used = feed["stop_times.txt"]?.text("stop_id")?.values() {
            let types = stops.numbers("location_type")
            for row in 0..<ids.count where (types?.int(row) ?? 0) == 0 {
                if let id = ids.text(row), !used.contains(id) {
                    report.add(stops, "unused stop", code: .unusedEntity, row: row,
                               "stop \(id) is not served by any trip (no row of stop_times.txt names it)")
                }
            }
        }
        unused(feed["routes.txt"], "route_id", by: feed["trips.txt"]?.text("route_id")?.values(), "route", "has no trips")
        unused(feed["trips.txt"], "trip_id", by: feed["stop_times.txt"]?.text("trip_id")?.values(), "trip", "has no stop times")
    }

    private mutating func unused(_ file: GTFSFileTable?, _ column: String, by used: Set<String>?, _ noun: String, _ what: String) {
        guard let file, let used, let ids = file.text(column) else { return }
        for row in 0..<ids.count {
            if let id = ids.text(row), !used.contains(id) {
                report.add(file, "unused \(noun)", code: .unusedEntity, row: row, "\(noun) \(id) \(what)")
            }
        }
    }
}
