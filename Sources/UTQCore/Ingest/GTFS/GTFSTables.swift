/// What the loader adds to a feed's tables once they are read: names for route types, and
/// the service-time column that time buckets read.
enum GTFSTables {
    static func finish(_ feed: GTFSFeed, report: inout GTFSReport) -> GTFSFeed {
        var feed = feed
        if var routes = feed["routes.txt"], let at = routes.table.columnIndex("route_type") {
            let (names, unknown) = GTFSRouteTypes.nameColumn(for: routes.table.columns[at])
            routes.table.columns.insert(names, at: at + 1)
            for row in unknown {
                let code = routes.table.columns[at].value(at: row)
                report.add(routes, "route_type", code: .unexpectedEnumValue, row: row, "route_type \(code.isNull ? "(empty)" : code.plainText) "
                           + "is not a GTFS route type (0–7, 11, 12, or an extended type 100–1799)")
            }
            feed.put(routes)
        }
        // Service times are durations since the start of the service day: `hour` on them
        // gives 25 for 25:10:00, a trip after midnight that belongs to the day before.
        timeColumn(&feed, "stop_times.txt", ["departure_time", "arrival_time"])
        timeColumn(&feed, "frequencies.txt", ["start_time"])
        return feed
    }

    private static func timeColumn(_ feed: inout GTFSFeed, _ name: String, _ candidates: [String]) {
        guard var file = feed[name] else { return }
        guard let column = candidates.first(where: { file.table.column($0)?.type == .duration }) else { return }
        file.table.timeColumn = file.table.column(column)?.name
        feed.put(file)
    }
}
