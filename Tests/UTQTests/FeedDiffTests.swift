import Foundation
import Testing
@testable import UTQCore

/// diff against Tests/Support/gtfs_network_reference.py, which compares the txt files of two
/// feeds day by day with the standard library: the made-up network against its next version
/// (Tests/Fixtures/gtfs-network-v2) both ways, over every day and over days given, and feeds
/// that are the same.
@Suite struct FeedDiffTests {
    /// The rows as comparable text: kind, change, id, route_id, date, metres (to a millimetre)
    /// and shift in seconds.
    static func rows(_ t: Table) -> [String] {
        let kinds = t.strings("kind"), changes = t.strings("change"), ids = t.strings("id"), routes = t.values("route_id")
        let dates = t.values("date"), dateTexts = t.strings("date"), metres = t.values("metres"), shifts = t.values("shift")
        return (0..<t.rowCount).map { i in
            let date = dates[i] == .null ? "-" : dateTexts[i]
            let m = metres[i].doubleValue.map { String(format: "%.3f", $0) } ?? "-"
            let shift = TransitReference.seconds(shifts[i]).map { "\(Int($0))" } ?? "-"
            return [kinds[i], changes[i], ids[i], routes[i] == .null ? "-" : routes[i].plainText, date, m, shift].joined(separator: " ")
        }.sorted()
    }

    static func reference(_ a: String, _ b: String, _ days: [String]) throws -> [String] {
        let rows = try #require(try TransitReference.run([Repo.path(a), "diff", Repo.path(b)] + days, script: "gtfs_network_reference.py") as? [[Any]])
        return rows.map { row in
            func cell(_ k: Int) -> String {
                if let s = row[k] as? String { return s }
                if k == 5, let m = row[k] as? Double { return String(format: "%.3f", m) }
                if let n = row[k] as? Int { return "\(n)" }
                return "-"
            }
            return (0..<7).map(cell).joined(separator: " ")
        }.sorted()
    }

    @Test(arguments: [("Tests/Fixtures/gtfs-network", "Tests/Fixtures/gtfs-network-v2"), ("Tests/Fixtures/gtfs-network-v2", "Tests/Fixtures/gtfs-network"),
                      ("datasets/gtfs/demo-transit.zip", "Tests/Fixtures/gtfs-transitfeed/good_feed"),
                      ("Tests/Fixtures/gtfs-transitfeed/good_feed", "Tests/Fixtures/gtfs-transitfeed/only_calendar_dates"),
                      ("Tests/Fixtures/gtfs-network", "Tests/Fixtures/gtfs-headways")])
    func twoFeeds(_ a: String, _ b: String) throws {
        let s = makeSession()
        try s.table("load \(a) as a\nload \(b) as b\ntables")
        for (words, days) in [("", [String]()), (" on 2026-04-06", ["2026-04-06", "2026-04-06"]), (" from 2007-06-03 to 2007-06-10", ["2007-06-03", "2007-06-10"])] {
            let mine = Self.rows(try s.table("a | diff b\(words)"))
            let theirs = try Self.reference(a, b, days)
            #expect(mine == theirs, "\(a) → \(b)\(words): \(Set(mine).symmetricDifference(theirs).sorted().prefix(6))")
        }
    }

    @Test func diffIsATableToSumUp() throws {
        let s = makeSession()
        try s.table("load Tests/Fixtures/gtfs-network as a\nload Tests/Fixtures/gtfs-network-v2 as b\ntables")
        // The contract's line, and its summaries.
        let counts = try s.table("a | diff b | count by change")
        #expect(counts.strings("change").contains("retimed") && counts.strings("change").contains("moved"))
        // In March the ferry's first trip is retimed on each weekday (22 of them), and that is all.
        let perDay = try s.table("a | diff b from 2026-03-01 to 2026-03-31 | where kind = \"trip\" and route_id = \"R4\" | count by date, change")
        #expect(Set(perDay.strings("change")) == ["retimed"] && perDay.rowCount == 22)
        // The ferry's first trip leaves 5 minutes later; the tram's frequencies change.
        let ferry = try s.table("a | diff b on 2026-03-03 | where id = \"R41\"")
        #expect(ferry.strings("detail") == ["leaves 07:20:00 → 07:25:00"])
        #expect(ferry.values("shift") == [.duration(300_000_000)])
        #expect(try s.table("a | diff b on 2026-03-03 | where id = \"C2\"").strings("detail") == ["-H"])
        // The same feed twice: nothing, said so.
        var notes: [String] = []
        let same = try s.table("load Tests/Fixtures/gtfs-network as c\na | diff c") { notes.append($0) }
        #expect(same.rowCount == 0)
        #expect(notes.contains("a and c differ in no route, stop, service or trip"))
        // explain shows the comparison as a step in memory.
        #expect(PlanPrinter.text(try s.plan("a | diff b on 2026-03-03")).contains("diff a → b: routes, stops and services, and the trips of each day on 2026-03-03"))
        // Mistakes.
        #expect(s.failure("a | diff zz")?.message == "zz is no GTFS feed")
        #expect(s.failure("a | diff b from 2026-03-10 to 2026-03-01")?.message == "2026-03-01 comes before 2026-03-10")
        #expect(s.failure("a | diff b from 2026-03-10")?.message.hasPrefix("expected to and the last day") == true)
        #expect(s.failure("a | diff")?.message.hasPrefix("expected the feed to compare with") == true)
    }
}
