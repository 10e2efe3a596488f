import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// The differential oracle's random tables and pipelines on PostgreSQL: each case runs in
/// memory and again on the same tables saved into a throwaway server (the plan's scans
/// pointing at the copies). The tables hold what makes engines differ — NaN, 10^18, texts
/// that differ only by case or accent, times next to the changes of clock in Oslo, nulls —
/// and both results must be equal. UTQ_ORACLE_SEED and UTQ_ORACLE_CASES choose the cases.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresOracleTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE oracle")
    }

    deinit { server.stop() }

    @Test(arguments: OracleTests.seeds)
    func randomPipelinesGiveTheSameRowsInPostgreSQL(_ seed: UInt64) throws {
        var g = OracleRandom(seed: seed &+ 1000)
        var done = 0, compared = 0
        while done < OracleTests.cases {
            let tables = OracleTables(&g)
            var gen = OracleGenerator(g: OracleRandom(seed: g.next()))
            let s = makeSession()
            s.databaseConnector = PostgresConnector()
            s.workspace.put([tables.r, tables.a], makeCurrent: true)
            try s.table("attach \(server.uri("oracle")) as db\ntables")
            let checker = PostgresCorpusTests.Checker(session: s, tag: "seed\(seed)_\(done)")
            for _ in 0..<min(OracleTests.casesPerTable, OracleTests.cases - done) {
                let c = gen.makeCase(id: done)
                done += 1
                for block in LiterateScript.blocks(in: SourceText(name: "<oracle>", text: c.utq)) {
                    guard case .command(let command) = block, case .query(let pipeline)? = try? Session.parse(command) else { continue }
                    let before = checker.checked
                    if let problem = try checker.check(pipeline, source: command.source).problem {
                        Issue.record("seed \(seed), case \(c.id) (\(c.area)): \(c.utq)\n\(problem)\ntable a:\n\(OracleTables.csv(tables.a))")
                    }
                    compared += checker.checked - before
                }
            }
        }
        #expect(compared > OracleTests.cases / 2, "only \(compared) of \(OracleTests.cases) cases were compared")
    }
}
