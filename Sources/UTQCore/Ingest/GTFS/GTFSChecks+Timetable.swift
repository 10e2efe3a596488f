/// The timetable: stop times along each trip, and headway periods.
extension GTFSChecks {
    mutating func checkStopTimes() {
        guard let times = feed["stop_times.txt"] else { return }
        references(times, "trip_id", to: tripIds, in: "trips.txt", required: "in every row")
        references(times, "stop_id", to: stopIds, in: "stops.txt",
                   required: times.has("location_id") || times.has("location_group_id") ? nil : "in every row")
        guard let trips = times.text("trip_id") else { return }
        let sequences = times.numbers("stop_sequence")
        let arrivals = times.numbers("arrival_time"), departures = times.numbers("departure_time")

        for row in 0..<times.table.rowCount {
            if let sequences {
                if let s = sequences.int(row) {
                    if s < 0 {
                        report.add(times, "negative stop_sequence", code: .numberOutOfRange, row: row, "stop_sequence is \(s); it must be 0 or more")
                    }
                } else {
                    report.add(times, "no stop_sequence", code: .missingRequiredField, row: row,
                               "no stop_sequence; GTFS requires a whole number in every row")
                }
            }
            let a = arrivals?.int(row), d = departures?.int(row)
            if (a == nil) != (d == nil), arrivals != nil, departures != nil {
                let (given, missing) = a != nil ? ("arrival_time", "departure_time") : ("departure_time", "arrival_time")
                report.add(times, "half a time", code: .stopTimeWithOnlyArrivalOrDepartureTime, row: row,
                           "\(given) \(Self.clock(a ?? d ?? 0)) but no \(missing); GTFS wants both "
                           + "or neither (write the same time twice when the vehicle does not wait)")
            }
            if let a, let d, d < a {
                report.add(times, "time order", code: .startAndEndRangeOutOfOrder, row: row,
                           "departure_time \(Self.clock(d)) is before arrival_time \(Self.clock(a))")
            }
        }

        let groups = Self.rowsByTrip(trips, sequences)
        // Codes number trips in the order they first appear, so warnings come in file order.
        for (code, rows) in groups.sorted(by: { $0.key < $1.key }) where !rows.isEmpty {
            checkTrip(times, trips.dictionary[code], rows, sequences, arrivals, departures)
        }
    }

    /// The rows of each trip (by the trip's code), in stop_sequence order.
    private static func rowsByTrip(_ trips: TextValues, _ sequences: NumberValues?) -> [Int: [Int]] {
        var groups: [Int: [Int]] = [:]
        for row in 0..<trips.count {
            if let code = trips.code(row) { groups[code, default: []].append(row) }
        }
        guard let sequences else { return groups }
        for (code, rows) in groups {
            let keys = rows.map { sequences.int($0) ?? Int64.min }
            if zip(keys, keys.dropFirst()).allSatisfy({ $0 <= $1 }) { continue }
            groups[code] = rows.indices.sorted { (keys[$0], rows[$0]) < (keys[$1], rows[$1]) }.map { rows[$0] }
        }
        return groups
    }

    /// One trip in stop order: no stop_sequence twice, times at both ends, time not going back.
    private mutating func checkTrip(_ times: GTFSFileTable, _ trip: String, _ rows: [Int], _ sequences: NumberValues?,
                                    _ arrivals: NumberValues?, _ departures: NumberValues?) {
        if rows.count == 1 {
            report.add(times, "one stop", code: .tripWithOneStop, row: rows[0],
                       "trip \(trip) has only this stop time; a trip serves at least two stops")
        }
        if let sequences {
            for (previous, row) in zip(rows, rows.dropFirst()) {
                guard let s = sequences.int(row), s == sequences.int(previous) else { continue }
                report.add(times, "repeated stop_sequence", code: .duplicateKey, row: row, "stop_sequence \(s) comes twice in trip \(trip)"
                           + (times.line(previous).map { " (also on line \($0))" } ?? "") + "; the order of its stops is unclear")
            }
        }
        guard arrivals != nil || departures != nil else { return }
        func timed(_ row: Int) -> Bool { arrivals?.int(row) != nil || departures?.int(row) != nil }
        if let first = rows.first, !timed(first) {
            report.add(times, "end without time", code: .missingTripEdge, row: first,
                       "the first stop of trip \(trip) has no arrival or departure time; "
                       + "GTFS requires times at the first and last stop of every trip")
        }
        if let last = rows.last, rows.count > 1, !timed(last) {
            report.add(times, "end without time", code: .missingTripEdge, row: last,
                       "the last stop of trip \(trip) has no arrival or departure time; "
                       + "GTFS requires times at the first and last stop of every trip")
        }
        var latest: (time: Int64, row: Int)? = nil
        for row in rows {
            let a = arrivals?.int(row), d = departures?.int(row)
            if let earliest = a ?? d, let latest, earliest < latest.time {
                report.add(times, "time goes back", code: .stopTimeWithArrivalBeforePreviousDepartureTime, row: row,
                           "trip \(trip) goes back in time: \(Self.clock(earliest)) here, "
                           + "after \(Self.clock(latest.time))" + (times.line(latest.row).map { " on line \($0)" } ?? ""))
            }
            if let t = d ?? a, t >= latest?.time ?? Int64.min { latest = (t, row) }
        }
    }

    mutating func checkFrequencies() {
        guard let frequencies = feed["frequencies.txt"] else { return }
        references(frequencies, "trip_id", to: tripIds, in: "trips.txt", required: "in every row")
        let starts = frequencies.numbers("start_time"), ends = frequencies.numbers("end_time")
        let headways = frequencies.numbers("headway_secs")
        for row in 0..<frequencies.table.rowCount {
            if let headways, (headways.int(row) ?? 0) <= 0 {
                report.add(frequencies, "headway", code: .invalidHeadway, row: row,
                           "headway_secs is \(headways.int(row).map(String.init) ?? "empty"); "
                           + "it must be a number of seconds above 0")
            }
            if let a = starts?.int(row), let b = ends?.int(row), b <= a {
                report.add(frequencies, "time order", code: .startAndEndRangeOutOfOrder, row: row,
                           "end_time \(Self.clock(b)) is not after start_time \(Self.clock(a))")
            }
        }
    }
}
