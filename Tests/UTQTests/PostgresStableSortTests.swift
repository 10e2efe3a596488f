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
}
