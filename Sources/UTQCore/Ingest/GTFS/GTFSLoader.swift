import Foundation

/// Loads a GTFS feed, a folder or a .zip, as related tables (`feed.stops`, `feed.trips`, …),
/// checks it, and reports what is wrong with it as warnings naming file and line.
///
/// A feed fails to load only when it has no timetable to analyse: GTFS requires agency.txt,
/// stops.txt, routes.txt, trips.txt and stop_times.txt (and calendar.txt or
/// calendar_dates.txt), but only the four that make the timetable are needed to read it;
/// a feed without agency.txt or a calendar loads, with a warning saying what is lost.
public enum GTFSLoader {
    /// The table made current: the timetable itself, where service times are.
    static let currentFile = "stop_times.txt"

    public static func load(_ request: LoadRequest, name: String, isDirectory: Bool) throws -> LoadResult {
        var source = try GTFSFeedSource.open(request.path, isDirectory: isDirectory)
        source.memoryLimit = request.memoryLimit
        let missing = GTFSSchema.essentialFiles.filter { !source.contains($0) }
        if !missing.isEmpty {
            throw LoadError(path: request.path, "is not a GTFS feed utq can read: it has no \(list(missing)). "
                            + "A feed's timetable is stops.txt, routes.txt, trips.txt and stop_times.txt together"
                            + (source.fileNames.isEmpty ? "" : " (this one has \(list(source.fileNames)))"))
        }
        request.progress?.setTotal(source.totalBytes)
        var report = GTFSReport()
        for note in source.notes { report.feed(note.path, code: nil, note.message) }

        // agency.txt first: its time zone is the zone of every date in the other files.
        var feed = GTFSFeed()
        var zone = request.zone
        if !source.contains("agency.txt") {
            report.feed(request.path, code: .missingRequiredFile, "there is no agency.txt, which GTFS requires; without an agency_timezone, "
                        + "dates are read in \(zone.identifier)")
        } else if var agency = try readOptional("agency.txt", source, name, zone, &report, request.cancel, request.progress) {
            zone = feedZone(agency, default: request.zone, report: &report)
            agency.table.zone = zone
            feed.put(agency)
        } else {
            report.feed(source.displayPath("agency.txt"), code: nil, "without an agency_timezone, dates are read in \(zone.identifier)")
        }
        for file in GTFSSchema.files where file.name != "agency.txt" && source.contains(file.name) {
            if GTFSSchema.essentialFiles.contains(file.name) {
                feed.put(try GTFSFileReader.read(file.name, from: source, feedName: name, zone: zone, report: &report,
                                                 cancel: request.cancel, progress: request.progress))
            } else if let table = try readOptional(file.name, source, name, zone, &report, request.cancel, request.progress) {
                feed.put(table)
            }
        }
        // Files GTFS does not define are loaded too (they are often a producer's extensions).
        var extras: [GTFSFileTable] = []
        for fileName in source.fileNames where GTFSSchema.file(named: fileName) == nil {
            let known = GTFSSchema.files.map(\.table)
            let suggestion = Suggest.closest(String(fileName.dropLast(4)), among: known).map { " — did you mean \($0).txt?" }
            report.feed(source.displayPath(fileName), code: .unknownFile, "is not a GTFS file; loaded without checks" + (suggestion ?? ""))
            if let table = try readOptional(fileName, source, name, zone, &report, request.cancel, request.progress) { extras.append(table) }
        }
        if !source.contains("calendar.txt") && !source.contains("calendar_dates.txt") {
            report.feed(request.path, code: .missingCalendarAndCalendarDateFiles,
                        "there is neither calendar.txt nor calendar_dates.txt, so the feed does not say "
                        + "on which days its trips run; GTFS requires one of them")
        }

        feed = GTFSTables.finish(feed, report: &report)
        var checks = GTFSChecks(feed: feed, report: report)
        checks.run()
        report = checks.report

        let ordered = GTFSSchema.files.compactMap { feed[$0.name]?.table } + extras.map(\.table)
        let current = feed[currentFile]?.table.name
        // The counts per notice follow the summary, so a long list of warnings ends with its tally.
        let head = summary(name, feed, tables: ordered.count, zone: zone, current: current)
        return LoadResult(tables: ordered, summary: report.noticeCounts.map { head + "\n" + $0 } ?? head,
                          warnings: report.finish(), current: current)
    }

    /// Reads a file the feed can do without; when it cannot be read, says so and goes on.
    /// Only a cancelled load (Ctrl-C) stops here.
    private static func readOptional(_ fileName: String, _ source: GTFSFeedSource, _ feedName: String, _ zone: ZoneRules,
                                     _ report: inout GTFSReport, _ cancel: CancellationFlag?,
                                     _ progress: LoadProgress?) throws -> GTFSFileTable? {
        do {
            return try GTFSFileReader.read(fileName, from: source, feedName: feedName, zone: zone, report: &report, cancel: cancel,
                                           progress: progress)
        } catch let e as CancellationError {
            throw e
        } catch let e as LoadError {
            report.feed(source.displayPath(fileName), code: GTFSNoticeCode(unreadable: e.kind),
                        "cannot be read, so it was left out: \(e.message)"
                        + (e.line.map { " (line \($0))" } ?? ""))
            return nil
        } catch {
            report.feed(source.displayPath(fileName), code: nil, "cannot be read, so it was left out: \(error)")
            return nil
        }
    }

    /// The zone every agency names (GTFS requires them to agree), or the session's.
    private static func feedZone(_ agency: GTFSFileTable, default fallback: ZoneRules, report: inout GTFSReport) -> ZoneRules {
        guard let zones = agency.text("agency_timezone") else {
            report.add(agency, "zone", code: .invalidTimezone, "without agency_timezone, dates are read in \(fallback.identifier)")
            return fallback
        }
        var chosen: ZoneRules? = nil
        for row in 0..<zones.count {
            guard let written = zones.text(row) else {
                report.add(agency, "zone", code: .invalidTimezone, row: row, "no agency_timezone; GTFS requires one")
                continue
            }
            guard let rules = ZoneRules.named(written) else {
                report.add(agency, "zone", code: .invalidTimezone, row: row, "agency_timezone \"\(written)\" is not a time zone name "
                           + "(such as America/Los_Angeles)")
                continue
            }
            if let chosen, chosen.identifier != rules.identifier {
                report.add(agency, "zone", code: .invalidTimezone, row: row, "agency_timezone \(written) differs from \(chosen.identifier); "
                           + "GTFS requires every agency of a feed to use one zone, so \(chosen.identifier) is used")
            } else if chosen == nil {
                chosen = rules
            }
        }
        if chosen == nil, zones.count > 0 { report.add(agency, "zone", code: .invalidTimezone, "dates are read in \(fallback.identifier)") }
        return chosen ?? fallback
    }

    /// `feed: GTFS, 1 agency, 11 tables · 5 routes, 11 trips, 28 stop times · current: feed.stop_times (America/Los_Angeles)`.
    static func summary(_ name: String, _ feed: GTFSFeed, tables: Int, zone: ZoneRules, current: String?) -> String {
        func count(_ file: String, _ one: String, _ many: String) -> String? {
            guard let n = feed[file]?.table.rowCount else { return nil }
            return "\(NumberText.grouped(n)) \(n == 1 ? one : many)"
        }
        var head = ["GTFS"]
        if let agencies = count("agency.txt", "agency", "agencies") { head.append(agencies) }
        head.append("\(tables) table\(tables == 1 ? "" : "s")")
        let body = [count("routes.txt", "route", "routes"), count("trips.txt", "trip", "trips"),
                    count("stop_times.txt", "stop time", "stop times")].compactMap { $0 }
        var s = "\(name): " + head.joined(separator: ", ") + " · " + body.joined(separator: ", ")
        if let current { s += " · current: \(current)" }
        return s + " (\(zone.identifier))"
    }

    private static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
