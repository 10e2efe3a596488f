/// Agencies, routes and the service calendar.
extension GTFSChecks {
    mutating func checkAgencies() {
        guard let agency = feed["agency.txt"] else { return }
        let several = agency.table.rowCount > 1
        _ = uniqueIds(agency, "agency_id", required: false)
        if several {
            if let ids = agency.text("agency_id") {
                for row in 0..<ids.count where ids.code(row) == nil {
                    report.add(agency, "no agency_id", code: .missingRequiredField, row: row,
                               "no agency_id; GTFS requires one for each agency when a feed has several")
                }
            } else {
                report.add(agency, "no agency_id", code: .missingRequiredField, header: true,
                           "there is no agency_id column, which GTFS requires when a feed has several agencies")
            }
        }
        for column in ["agency_name", "agency_url"] {
            guard let values = agency.text(column) else { continue }
            for row in 0..<values.count where values.code(row) == nil {
                report.add(agency, "no \(column)", code: .missingRequiredField, row: row, "no \(column); GTFS requires one")
            }
        }
    }

    mutating func checkRoutes() {
        guard let routes = feed["routes.txt"] else { return }
        routeIds = uniqueIds(routes, "route_id")
        let agencyCount = feed["agency.txt"]?.table.rowCount ?? 0
        let agencyIds = feed["agency.txt"]?.text("agency_id")?.values() ?? []
        if routes.has("agency_id") {
            references(routes, "agency_id", to: agencyIds.isEmpty ? nil : agencyIds, in: "agency.txt",
                       required: agencyCount > 1 ? "when a feed has several agencies" : nil)
        } else if agencyCount > 1 {
            report.add(routes, "missing column", code: .missingRequiredColumn, header: true,
                       "there is no agency_id column; with several agencies GTFS requires it, to say whose each route is")
        }
        checkRouteNames(routes)
    }

    /// Names a rider sees: at least one of the two, not the same twice, not two routes alike.
    private mutating func checkRouteNames(_ routes: GTFSFileTable) {
        let short = routes.text("route_short_name"), long = routes.text("route_long_name")
        let ids = routes.text("route_id"), agencies = routes.text("agency_id")
        var seen: [String: Int] = [:]
        for row in 0..<routes.table.rowCount {
            let s = short?.text(row), l = long?.text(row)
            let id = ids?.text(row).map { "route \($0)" } ?? "this route"
            if s == nil && l == nil {
                report.add(routes, "route name", code: .duplicateRouteName, row: row,
                           "\(id) has neither route_short_name nor route_long_name; GTFS requires one")
                continue
            }
            if let s, let l, s == l {
                report.add(routes, "route name", code: .duplicateRouteName, row: row,
                           "\(id) has the same route_short_name and route_long_name (\"\(s)\"); "
                           + "the short name is the route's label (\"32\"), the long name says where it goes")
            }
            let key = [agencies?.text(row) ?? "", s ?? "", l ?? ""].joined(separator: "\u{1F}").lowercased()
            if let first = seen[key] {
                let other = ids?.text(first).map { "route \($0)" } ?? "another route"
                report.add(routes, "repeated route name", code: .duplicateRouteName, row: row, "\(id) has the same names as \(other)"
                           + (routes.line(first).map { " (line \($0))" } ?? "") + "; riders cannot tell them apart")
            } else {
                seen[key] = row
            }
        }
    }

    mutating func checkServices() {
        var services: Set<String>? = nil
        if let calendar = feed["calendar.txt"] {
            services = uniqueIds(calendar, "service_id") ?? []
            for day in GTFSSchema.weekdays {
                guard let values = calendar.numbers(day) else { continue }
                for row in 0..<values.count {
                    let v = values.int(row)
                    if v != 0 && v != 1 {
                        report.add(calendar, "weekday value", code: .unexpectedEnumValue, row: row,
                                   "\(day) is \(v.map(String.init) ?? "empty"); it must be 1 "
                                   + "(the service runs that weekday) or 0 (it does not)")
                    }
                }
            }
            if let starts = calendar.numbers("start_date"), let ends = calendar.numbers("end_date") {
                for row in 0..<starts.count {
                    if let a = starts.int(row), let b = ends.int(row), a > b {
                        report.add(calendar, "date order", code: .startAndEndRangeOutOfOrder, row: row,
                                   "end_date is before start_date; the service never runs")
                    }
                }
            }
        }
        if let dates = feed["calendar_dates.txt"] {
            services = (services ?? []).union(dates.text("service_id")?.values() ?? [])
            checkCalendarDates(dates)
        }
        serviceIds = services
    }

    private mutating func checkCalendarDates(_ dates: GTFSFileTable) {
        let ids = dates.text("service_id"), days = dates.numbers("date"), kinds = dates.numbers("exception_type")
        var seen: [String: Int] = [:]
        for row in 0..<dates.table.rowCount {
            if let kinds, kinds.int(row) != 1 && kinds.int(row) != 2 {
                report.add(dates, "exception_type", code: .unexpectedEnumValue, row: row,
                           "exception_type is \(kinds.int(row).map(String.init) ?? "empty"); "
                           + "it must be 1 (service added that date) or 2 (service removed)")
            }
            guard let id = ids?.text(row), let day = days?.int(row) else { continue }
            let key = id + "\u{1F}" + String(day)
            if let first = seen[key] {
                report.add(dates, "duplicate date", code: .duplicateCalendarDate, row: row, "service \(id) has this date twice"
                           + (dates.line(first).map { " (first on line \($0))" } ?? ""))
            } else {
                seen[key] = row
            }
        }
    }
}
