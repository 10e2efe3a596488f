/// U.T. Prishtina, the offline bus app: a routes file (lines, their directions and stops,
/// an encoded polyline) and an itineraries file (prices, first and last departures on
/// weekdays and weekends, frequency). The app's real typo `startLocattionLng` is accepted.
public enum Prishtina {
    public static let zone = "Europe/Belgrade"  // Kosovo keeps Central European time

    public static func isRoutes(_ doc: JSONValue) -> Bool {
        doc["routes"]?.array?.contains(where: { $0["lines"]?.array != nil }) ?? false
    }

    public static func isItineraries(_ doc: JSONValue) -> Bool {
        guard let items = doc["itineraries"]?.array ?? doc.array else { return false }
        return !items.isEmpty && items.allSatisfy { item in
            item.objectMembers != nil && (item["price"] != nil || item["frequency"] != nil) && (item["line"] ?? item["name"]) != nil
        }
    }

    static func double(_ v: JSONValue?, _ keys: String...) -> Value {
        for k in keys { if let d = v?[k]?.double { return .double(d) } }
        return .null
    }

    static func text(_ v: JSONValue?, _ keys: String...) -> Value {
        for k in keys { if let s = v?[k]?.string { return .string(s) } }
        return .null
    }

    public static func loadRoutes(_ doc: JSONValue, name: String, path: String) throws -> ([Table], [LoadWarning]) {
        let zone = ZoneRules.named(zone) ?? .utc
        var warnings = WarningLog(path: path)
        var lines = RowTable(name: name + ".lines", [
            ("line", .string), ("color", .string), ("from", .string), ("to", .string),
            ("start_lat", .double), ("start_lng", .double), ("end_lat", .double), ("end_lng", .double),
            ("directions", .int), ("stops", .int), ("polyline_points", .int), ("length_km", .double), ("polyline", .string),
        ])
        var stops = RowTable(name: name + ".stops", [
            ("line", .string), ("direction", .int), ("from", .string), ("to", .string),
            ("sequence", .int), ("stop", .string), ("lat", .double), ("lng", .double),
        ])
        for route in doc["routes"]?.array ?? [] {
            for line in route["lines"]?.array ?? [] {
                let lineName = text(line, "name")
                let label = lineName == .null ? "line \(lines.rowCount + 1)" : lineName.plainText
                let directions = line["directions"]?.array ?? []
                var stopCount = 0
                for (d, direction) in directions.enumerated() {
                    let busStops = direction["bus_stops"]?.array ?? direction["stops"]?.array ?? []
                    for (k, stop) in busStops.enumerated() {
                        let lat = double(stop, "lat", "latitude"), lng = double(stop, "lng", "lon", "longitude")
                        if lat == .null || lng == .null { warnings.add("stop", line: nil, "\(label), direction \(d + 1), stop \(k + 1) has no lat/lng") }
                        stops.append([lineName, .int(Int64(d + 1)), text(direction, "from"), text(direction, "to"),
                                      .int(Int64(k + 1)), text(stop, "name"), lat, lng])
                        stopCount += 1
                    }
                }
                var pointCount: Value = .null, length: Value = .null
                let encoded = line["polyline"]?.string
                if let encoded {
                    if let points = Polyline.decode(encoded) {
                        pointCount = .int(Int64(points.count))
                        length = .double((Polyline.length(points) / 10).rounded() / 100)
                    } else {
                        warnings.add("polyline", line: nil, "\(label): the polyline cannot be decoded")
                    }
                }
                let first = directions.first
                lines.append([
                    lineName, text(line, "color"), text(first, "from"), text(first, "to"),
                    double(line, "startLocationLat", "startLocattionLat"), double(line, "startLocationLng", "startLocattionLng"),
                    double(line, "endLocationLat", "endLocattionLat"), double(line, "endLocationLng", "endLocattionLng"),
                    .int(Int64(directions.count)), .int(Int64(stopCount)), pointCount, length, encoded.map { .string($0) } ?? .null,
                ])
            }
        }
        guard lines.rowCount > 0 else { throw LoadError(path: path, "the routes file has no lines (routes[].lines[] is empty)") }
        return ([lines.table(zone: zone, rowNoun: "lines", orderedText: ["line"]),
                 stops.table(zone: zone, rowNoun: "stops", orderedText: ["line"])], warnings.finish())
    }

    /// Itineraries: utq's reading of the app's schedule file (the thesis names the fields but
    /// not their spelling), documented in docs/formats.md. Times may be "06:00" or "6:00".
    public static func loadItineraries(_ doc: JSONValue, name: String, path: String) throws -> ([Table], [LoadWarning]) {
        let zone = ZoneRules.named(zone) ?? .utc
        var warnings = WarningLog(path: path)
        var table = RowTable(name: name + ".itineraries", [
            ("line", .string), ("price", .double), ("weekday_first", .duration), ("weekday_last", .duration),
            ("weekend_first", .duration), ("weekend_last", .duration), ("frequency", .duration), ("info", .string),
        ])
        for col in ["weekday_first", "weekday_last", "weekend_first", "weekend_last"] { table.setUnit(col, .clock) }
        func clock(_ item: JSONValue, _ group: String, _ field: String, _ flat: [String]) -> Value {
            var raw = item[group]?[field]
            for k in flat where raw == nil { raw = item[k] }
            guard let s = raw?.string else { return .null }
            if let d = DurationParser.clock(s) { return .duration(d) }
            warnings.add("time", line: nil, "\((item["line"] ?? item["name"])?.string ?? "a line"): \"\(s)\" is not a time like 06:30")
            return .null
        }
        for item in doc["itineraries"]?.array ?? doc.array ?? [] {
            var frequency: Value = .null
            if let f = item["frequency"] {
                // Minutes between buses; a count of microseconds past Int64 is no frequency.
                if let minutes = f.double, (minutes * 60_000_000).magnitude < 9.2e18 { frequency = .duration(Int64(minutes * 60_000_000)) }
                else if let s = f.string, let d = DurationParser.parse(s) { frequency = .duration(d.micros) }
            }
            table.append([
                text(item, "line", "name"), double(item, "price"),
                clock(item, "weekday", "first", ["weekday_first", "first_weekday"]), clock(item, "weekday", "last", ["weekday_last", "last_weekday"]),
                clock(item, "weekend", "first", ["weekend_first", "first_weekend"]), clock(item, "weekend", "last", ["weekend_last", "last_weekend"]),
                frequency, text(item, "info", "information"),
            ])
        }
        return ([table.table(zone: zone, rowNoun: "lines", orderedText: ["line"])], warnings.finish())
    }
}
