/// Checks a feed across its files, the way a transit analyst would before trusting it:
/// ids that come twice, references to ids no file defines, values GTFS does not allow,
/// timetables that go back in time. Each finding is a warning with its file and line;
/// nothing here stops the load.
struct GTFSChecks {
    let feed: GTFSFeed
    var report: GTFSReport

    /// Ids each file defines, for checking the files that refer to them.
    var stopIds: Set<String>?
    var routeIds: Set<String>?
    var tripIds: Set<String>?
    var serviceIds: Set<String>?

    init(feed: GTFSFeed, report: GTFSReport) {
        self.feed = feed
        self.report = report
    }

    mutating func run() {
        checkAgencies()
        checkStops()
        checkRoutes()
        checkServices()
        checkTrips()
        checkStopTimes()
        checkFrequencies()
        checkShapes()
        checkOtherReferences()
        checkUnused()
    }

    // MARK: trips

    mutating func checkTrips() {
        guard let trips = feed["trips.txt"] else { return }
        tripIds = uniqueIds(trips, "trip_id")
        references(trips, "route_id", to: routeIds, in: "routes.txt", required: "in every row")
        references(trips, "service_id", to: serviceIds, in: "calendar.txt or calendar_dates.txt", required: "in every row")
        if feed["shapes.txt"] != nil {
            references(trips, "shape_id", to: feed["shapes.txt"]?.text("shape_id")?.values(), in: "shapes.txt")
        } else if let shapes = trips.text("shape_id"), let row = (0..<shapes.count).first(where: { shapes.code($0) != nil }) {
            report.add(trips, "shape_id", code: .unknownShape, row: row, "shape_id \"\(shapes.text(row) ?? "")\" but the feed has no shapes.txt")
        }
    }

    // MARK: helpers

    /// Checks that every row has an id and that no id comes twice; returns the ids.
    /// `required: false` allows rows without one (agency_id in a feed of one agency).
    mutating func uniqueIds(_ file: GTFSFileTable, _ column: String, required: Bool = true) -> Set<String>? {
        guard let ids = file.text(column) else { return nil }
        var firstRow = [Int32](repeating: -1, count: ids.dictionary.count)
        for row in 0..<ids.count {
            guard let code = ids.code(row) else {
                if required {
                    report.add(file, "no \(column)", code: .missingRequiredField, row: row, "no \(column); GTFS requires one in every row")
                }
                continue
            }
            let first = Int(firstRow[code])
            if first < 0 {
                firstRow[code] = Int32(row)
            } else {
                report.add(file, "duplicate \(column)", code: .duplicateKey, row: row,
                           "\(column) \"\(ids.dictionary[code])\" appears again" + (file.line(first).map { " (first on line \($0))" } ?? "")
                           + "; ids must be unique, so references to it are ambiguous")
            }
        }
        return ids.values()
    }

    /// Checks that each value of `column` is an id of `target`: one warning per unknown id,
    /// at the first row that names it. Unknown ids are not looked for when the target is
    /// not in the feed (that is reported once for the feed). `required` says when GTFS
    /// wants a value in every row ("in every row"); nil when it may be empty.
    mutating func references(_ file: GTFSFileTable, _ column: String, to ids: Set<String>?, in target: String,
                             required: String? = nil) {
        guard let values = file.text(column) else { return }
        let known = values.dictionary.map { ids?.contains($0) ?? true }
        var firstRow = [Int](repeating: -1, count: values.dictionary.count)
        var rows = [Int](repeating: 0, count: values.dictionary.count)
        for row in 0..<values.count {
            guard let code = values.code(row) else {
                if let required {
                    report.add(file, "no \(column)", code: .missingRequiredField, row: row, "no \(column); GTFS requires one \(required)")
                }
                continue
            }
            if known[code] { continue }
            if firstRow[code] < 0 { firstRow[code] = row }
            rows[code] += 1
        }
        for code in firstRow.indices.sorted(by: { firstRow[$0] < firstRow[$1] }) where firstRow[code] >= 0 {
            let more = rows[code] > 1 ? " (\(rows[code]) rows name it; this is the first)" : ""
            report.add(file, "undefined \(column)", code: .foreignKeyViolation, row: firstRow[code],
                       "\(column) \"\(values.dictionary[code])\" is not in \(target)\(more)")
        }
    }

    /// `6:05:00` for messages.
    static func clock(_ micros: Int64) -> String { TimeText.duration(micros, unit: .clock) }
}
