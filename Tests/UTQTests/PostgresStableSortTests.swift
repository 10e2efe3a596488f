import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// utq's sort is stable: rows that tie keep the order they came in. In PostgreSQL the rows of
/// a join, a union or a window are numbered in utq's order before the sort, and the number
/// breaks its ties, so a sort or top over them takes the same rows in the same order as in
/// memory (PostgreSQL's own sort is not stable).
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresStableSortTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE ties")
    }

    deinit { server.stop() }

    static let pipelines = [
        "ties | join other on g | sort g",
        "ties | join other on g | top 3 by x",
        "ties | join other on n <= g | sort g",
        "ties | union ties | sort g | limit 9",
        "ties | select n, g | union other | sort g",
        "ties | let r = rank(x) by g | sort r | limit 8",
    ]

    @Test func rowsThatTieOverAJoinAUnionOrAWindowKeepUtqsOrder() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        s.workspace.put(DifferentialTables.ties.tables, makeCurrent: true)
        try s.table("attach \(server.uri("ties")) as db\nties | save to db.ties\nother | save to db.other\ntables")
        for pipeline in Self.pipelines {
            let remote = "db." + pipeline.replacingOccurrences(of: "join other", with: "join db.other")
                .replacingOccurrences(of: "union ties", with: "union db.ties").replacingOccurrences(of: "union other", with: "union db.other")
            let difference = tableDifference(try s.table(remote), try s.table(pipeline))
            #expect(difference == nil, "\(pipeline): \(difference ?? "")")
            // All of it ran in PostgreSQL.
            let placed = try s.place(try s.plan(remote))
            #expect(placed.steps.allSatisfy { !$0.site.isMemory }, "\(pipeline):\n\(placed.placementText)")
        }
    }

    /// A window without a call that reads the rows' order (rank, a summary of the group)
    /// still gives its rows in the table's stored order, as memory gives them in the file's:
    /// here the rows were written in the reverse of their utq_row order.
    @Test func aWindowKeepsTheTablesStoredOrder() throws {
        let values = (1...12).reversed().map { n in "(\(n), \(n % 3), \(n % 2), \(n))" }.joined(separator: ", ")
        try server.psql("CREATE TABLE stored (n int8, x float8, g int8, utq_row bigint); INSERT INTO stored VALUES \(values);", database: "ties")
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        s.workspace.put([Table(name: "stored", columns: [
            Column.ints("n", (1...12).map { Int64($0) }), Column.doubles("x", (1...12).map { Double($0 % 3) }),
            Column.ints("g", (1...12).map { Int64($0 % 2) }),
        ])], makeCurrent: true)
        try s.table("attach \(server.uri("ties")) as db\ntables")
        for pipeline in ["let r = rank(x)", "let m = max(x) by g", "let r = rank(x) by g | sort r | limit 5"] {
            let difference = tableDifference(try s.table("db.stored | " + pipeline), try s.table("stored | " + pipeline))
            #expect(difference == nil, "\(pipeline): \(difference ?? "")")
            let placed = try s.place(try s.plan("db.stored | " + pipeline))
            #expect(placed.steps.allSatisfy { !$0.site.isMemory }, "\(pipeline):\n\(placed.placementText)")
        }
    }

    /// A summary's groups are in key order in memory; PostgreSQL gives them in any order. A
    /// join or a window over them numbers them in key order where the keys sort alike in SQL,
    /// and runs in memory where they are text; a select that drops a key runs in memory after
    /// placement has put the groups back in key order.
    @Test func groupsKeepTheirKeyOrderThroughAJoinAWindowAndASelect() throws {
        let count = 240
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        s.workspace.put([
            Table(name: "t", columns: [
                Column.texts("s", (0..<count).map { ["pear", "apple", "fig", "kiwi"][($0 * 7) % 4] }),
                Column.ints("n", (0..<count).map { Int64(($0 * 37) % 60) }),
            ]),
            Table(name: "names", columns: [Column.texts("s", ["fig", "apple", "kiwi", "pear"]), Column.ints("m", [3, 1, 4, 2])]),
            Table(name: "nums", columns: [Column.ints("n", (0..<60).reversed().map { Int64($0) }), Column.ints("m", (0..<60).map { Int64($0 % 7) })]),
        ], makeCurrent: true)
        try s.table("attach \(server.uri("ties")) as db\nt | save! to db.t\nnames | save! to db.names\nnums | save! to db.nums\ntables")
        for pipeline in [
            "t | count by n | join nums on n",
            "t | count by n | join nums on n and count > m",
            "t | count by n | join nums on count > m | limit 30",
            "t | count by s | join names on s | select s, m, count",
            "t | count by s, n | let share = count / sum(count) by n | where s = \"fig\" | select n, share",
            "t | count by n, s | let share = count / sum(count) by n | select s, share",
            "t | count by n | let share = count / sum(count) | select share",
        ] {
            let remote = "db." + pipeline.replacingOccurrences(of: "join nums", with: "join db.nums").replacingOccurrences(of: "join names", with: "join db.names")
            let difference = tableDifference(try s.table(remote), try s.table(pipeline))
            let placement = try s.place(try s.plan(remote)).placementText
            #expect(difference == nil, "\(pipeline): \(difference ?? "")\n\(placement)")
        }
    }

    /// A limit over a join, a union or a window whose SQL ends in utq's order runs in
    /// PostgreSQL and keeps the rows memory keeps (only they come back).
    @Test func aLimitOverAJoinAUnionOrAWindowRunsInTheDatabase() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        s.workspace.put(DifferentialTables.ties.tables, makeCurrent: true)
        try s.table("attach \(server.uri("ties")) as db\nties | save! to db.ties\nother | save! to db.other\ntables")
        for pipeline in [
            "ties | join other on g | limit 6",
            "ties | join other on n <= g | head 3",
            "ties | join other on x < g | limit 8",
            "ties | join other on g and x >= g | limit 8",
            "ties | left join other on g | select n, label | limit 7",
            "ties | union ties | limit 50",
            "ties | let k = row_number() by g | select n, k | limit 5",
            "ties | let r = rank(x) by g | limit 9",
        ] {
            let remote = "db." + pipeline.replacingOccurrences(of: "join other", with: "join db.other").replacingOccurrences(of: "union ties", with: "union db.ties")
            let difference = tableDifference(try s.table(remote), try s.table(pipeline))
            #expect(difference == nil, "\(pipeline): \(difference ?? "")")
            let placed = try s.place(try s.plan(remote))
            #expect(placed.steps.allSatisfy { !$0.site.isMemory }, "\(pipeline):\n\(placed.placementText)")
        }
    }

    /// first and last take a group's first and last value that is not null in utq's order,
    /// in PostgreSQL too: over a table's rows, a sort's (ties in the table's order) and a join's.
    @Test func firstAndLastTakeTheRowsInUtqsOrder() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        s.workspace.put(DifferentialTables.ties.tables, makeCurrent: true)
        try s.table("attach \(server.uri("ties")) as db\nties | save! to db.ties\nother | save! to db.other\ntables")
        for pipeline in [
            "ties | first n, last n by g",
            "ties | first flag, last flag, first h by g",
            "ties | sort x | first n, last n by g",
            "ties | join other on g | first label, last label, last n by x",
            "ties | first t, last x",
        ] {
            let remote = "db." + pipeline.replacingOccurrences(of: "join other", with: "join db.other")
            let difference = tableDifference(try s.table(remote), try s.table(pipeline))
            #expect(difference == nil, "\(pipeline): \(difference ?? "")")
            let placed = try s.place(try s.plan(remote))
            #expect(placed.steps.allSatisfy { !$0.site.isMemory || $0.restoresKeyOrder }, "\(pipeline):\n\(placed.placementText)")
        }
        // A window's rows have no order in SQL's summaries over a window: it runs in memory.
        let placed = try s.place(try s.plan("db.ties | let f = first(n) by g"))
        #expect(placed.placementText.contains("first and last take a window's rows in their order"), "\(placed.placementText)")
    }
}
