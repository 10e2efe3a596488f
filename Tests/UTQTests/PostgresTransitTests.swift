import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// A GTFS feed saved into PostgreSQL answers as the loaded feed does: every transit verb, on
/// the days the calendar names, the days around its exception, days across its range, days
/// outside it and no day, gives the same rows or the same error. The verbs read the calendar
/// through probes, so where the feed is does not change what they know of it.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresTransitTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE transit")
    }

    deinit { server.stop() }

    static let verbs = ["service", "headways", "span", "peak vehicles", "route stats", "departures", "segments",
                        "travel times from STAGECOACH at \"08:00\""]

    /// The demo feed loaded as `feed`, and its tables saved as the tables of the database
    /// `db` (so `db` is the same feed), in the feed's zone.
    func session() throws -> Session {
        let s = makeSession(zone: try #require(ZoneRules.named("America/Los_Angeles")))
        s.databaseConnector = PostgresConnector()
        try s.table("load datasets/gtfs/demo-transit.zip as feed\nattach \(server.uri("transit")) as db\ntables")
        let files = s.catalog.names.filter { $0.hasPrefix("feed.") }.map { String($0.dropFirst(5)) }
        for file in files { try s.table("feed.\(file) | save! to db.\(file)\ntables") }
        return s
    }

    /// The days to ask about: those the calendar names, the week of its exception, one a
    /// month across its range, the days just outside it, and one far outside.
    func days() -> [String] {
        var days = ["2007-01-01", "2025-12-31", "2006-12-31", "2026-01-01", "2031-06-05"]
        days += (3...10).map { "2007-06-\($0 < 10 ? "0" : "")\($0)" }
        for year in stride(from: 2007, through: 2025, by: 3) {
            for month in [1, 4, 7, 10] { days.append("\(year)-\(month < 10 ? "0" : "")\(month)-1\(month % 7)") }
        }
        return days
    }

    @Test func everyVerbOnEveryDayAnswersAsTheLoadedFeed() throws {
        let s = try session()
        var compared = 0, errors = 0
        for verb in Self.verbs {
            for day in days().map({ " on \($0)" }) + [""] {
                let local = Self.outcome(s, "feed | \(verb)\(day)")
                let remote = Self.outcome(s, "db | \(verb)\(day)")
                switch (local, remote) {
                case (.success(let a), .success(let b)):
                    #expect(tableDifference(b, a) == nil, "\(verb)\(day): \(tableDifference(b, a) ?? "")")
                case (.failure(let a), .failure(let b)):
                    // The same error, of the feed by its other name.
                    #expect(b.message == a.message.replacingOccurrences(of: "feed", with: "db"), "\(verb)\(day)")
                    #expect(b.span == a.span.map { SourceSpan($0.start - 2, $0.end - 2) }, "\(verb)\(day): the error points elsewhere")
                    errors += 1
                default:
                    Issue.record("\(verb)\(day): loaded \(local), in PostgreSQL \(remote)")
                }
                compared += 1
            }
        }
        #expect(compared == Self.verbs.count * (days().count + 1))
        // Days outside the calendar are errors, with a caret under the date.
        #expect(errors == Self.verbs.count * 3, "\(errors) errors")
    }

    /// The network's steps have no SQL form: they run in memory over the rows the database
    /// gives, explain says why, and a feed in the database compares with the same feed loaded.
    @Test func networkStepsRunInMemoryOverTheDatabasesRows() throws {
        let s = try session()
        let plan = try s.explainText("db | travel times from STAGECOACH at \"08:00\" on 2007-06-05")
        #expect(plan.contains("in memory: RAPTOR searches the timetable round by round; it has no SQL form"), "\(plan)")
        #expect(plan.contains("in memory: expanding frequencies.txt into runs has no SQL form"), "\(plan)")
        guard case .success(let same) = Self.outcome(s, "db | diff feed") else { Issue.record("db | diff feed failed"); return }
        #expect(same.rowCount == 0)
    }

    static func outcome(_ s: Session, _ line: String) -> Result<Table, Diagnostic> {
        var table: Table? = nil
        var failure: Diagnostic? = nil
        s.run(line, name: "<test>") { _, o in
            failure = o.error
            for case .table(let r) in o.outputs { table = r.table }
        }
        if let failure { return .failure(failure) }
        guard let table else { return .failure(Diagnostic("no table")) }
        return .success(table)
    }
}
