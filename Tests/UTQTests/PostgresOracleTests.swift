import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// The differential oracle's random tables and pipelines on PostgreSQL, three ways: each case
/// runs in memory, on the same tables saved into a throwaway server, and on copies of them
/// hash-partitioned over two shards (postgres_fdw foreign partitions under a coordinator,
/// partitionwise aggregation on). All must give the same rows in the same order: utq fixes
/// the order of every pipeline's rows. The random cases here also leave ties to a sort,
/// read rows along a table's own order, a join's or a union's (limits, windows, first and
/// last), which only utq's own order decides. The fixed tables (`DifferentialTables`) hold
/// what makes engines differ most: ties, NaN and the infinities, Unicode, times at changes
/// of clock. UTQ_ORACLE_SEED and UTQ_ORACLE_CASES choose the random cases (`make oracle-pg`).
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs && (ThrowawayPostgres.hasExtension("postgres_fdw") || !ThrowawayPostgres.available),
                             "PostgreSQL with postgres_fdw is not installed"))
final class PostgresOracleTests {
    let server: ThrowawayPostgres
    let shards: ShardedCopies

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE oracle")
        shards = try ShardedCopies(home: server, source: "oracle")
    }

    deinit {
        shards.stop()
        server.stop()
    }

    /// A session with the one server attached as db and the coordinator as sh.
    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("oracle")) as db\nattach \(server.uri(ShardedCopies.database)) as sh\ntables")
        return s
    }

    func checker(_ s: Session, tag: String) -> PostgresCorpusTests.Checker {
        let checker = PostgresCorpusTests.Checker(session: s, tag: tag)
        checker.sharded = { [shards] name in
            let copy = try shards.copy(name)
            _ = try s.rereadTables(of: DatabaseChanged(database: "sh", reason: "a sharded copy was made"))
            return "sh." + copy
        }
        return checker
    }

    /// One test, so that the three servers start once: the fixed tables, then each seed's
    /// random cases.
    @Test func memoryOneServerAndShardsGiveTheSameRows() throws {
        for fixed in DifferentialTables.all { try fixedTable(fixed) }
        // The shards did the work: each was sent summaries by the partition key to group.
        for shard in shards.shards {
            #expect(shard.statements().contains { $0.contains("GROUP BY") }, "a shard grouped nothing")
        }
        for seed in OracleTests.seeds { try randomPipelines(seed) }
    }

    func randomPipelines(_ seed: UInt64) throws {
        let started = Date()
        var g = OracleRandom(seed: seed &+ 1000)
        var done = 0
        var figures = PostgresCorpusTests.Checker.Figures()
        while done < OracleTests.cases {
            let tables = OracleTables(&g)
            var gen = OracleGenerator(g: OracleRandom(seed: g.next()))
            gen.orderFree = true
            let s = try session()
            s.workspace.put([tables.r, tables.a], makeCurrent: true)
            let checker = checker(s, tag: "seed\(seed)_\(done)")
            for _ in 0..<min(OracleTests.casesPerTable, OracleTests.cases - done) {
                let c = gen.makeCase(id: done)
                done += 1
                for block in LiterateScript.blocks(in: SourceText(name: "<oracle>", text: c.utq)) {
                    guard case .command(let command) = block, case .query(let pipeline)? = try? Session.parse(command) else { continue }
                    if let problem = try checker.check(pipeline, source: command.source).problem {
                        Issue.record("seed \(seed), case \(c.id) (\(c.area)): \(c.utq)\n\(problem)\ntable a:\n\(OracleTables.csv(tables.a))table r:\n\(OracleTables.csv(tables.r))")
                    }
                }
            }
            figures.add(checker)
        }
        print("postgres oracle seed \(seed), \(OracleTests.cases) cases in \(Int(Date().timeIntervalSince(started))) s:\n" + figures.text)
        #expect(figures.checked > OracleTests.cases / 2, "seed \(seed): only \(figures.checked) of \(OracleTests.cases) cases were compared")
        #expect(figures.shardedChecked > OracleTests.cases / 2, "seed \(seed): only \(figures.shardedChecked) of \(OracleTests.cases) cases were compared on the shards")
    }

    /// A fixed table's pipelines: each must be compared three ways and agree, but for the
    /// disagreements known and said in `known`, which must still disagree.
    func fixedTable(_ fixed: DifferentialTables) throws {
        let s = try session()
        if let zone = fixed.sessionZone { try s.table("set timezone \(zone)\ntables") }
        s.workspace.put(fixed.tables, makeCurrent: true)
        let checker = checker(s, tag: "fixed_\(fixed.name)")
        for text in fixed.pipelines {
            let source = SourceText(name: "<\(fixed.name)>", text: text)
            for block in LiterateScript.blocks(in: source) {
                guard case .command(let command) = block else { continue }
                let pipeline = try #require({ if case .query(let p)? = try? Session.parse(command) { return p } else { return nil } }(), "\(text) does not parse")
                let before = checker.checked
                let problem = try checker.check(pipeline, source: command.source).problem
                if let why = fixed.known[text] {
                    withKnownIssue(Comment(rawValue: why)) {
                        if let problem { Issue.record("\(fixed.name): \(text)\n\(problem)") }
                    }
                    continue
                }
                if let problem { Issue.record("\(fixed.name): \(text)\n\(problem)") }
                #expect(checker.checked == before + 1, "\(fixed.name): \(text) was not compared (it fails in memory, or reads no table)")
            }
        }
        var figures = PostgresCorpusTests.Checker.Figures()
        figures.add(checker)
        print("postgres differential table \(fixed.name), \(fixed.pipelines.count) pipelines:\n" + figures.text)
        #expect(checker.shardedChecked == checker.checked, "\(fixed.name): not every pipeline ran on the shards")
    }
}

/// Copies of the one server's tables partitioned over two shards: a coordinator database
/// (`sharded`, on the same server) whose tables are partitioned by hash over postgres_fdw
/// foreign tables on two other servers, with partitionwise aggregation on, as
/// PostgresShardedTests sets it up. Each copy has a `utq_row bigint` column holding the
/// row's position, the table's stored order.
final class ShardedCopies: @unchecked Sendable {
    static let database = "sharded"
    let home: ThrowawayPostgres
    let source: String
    let shards: [ThrowawayPostgres]

    init(home: ThrowawayPostgres, source: String) throws {
        self.home = home
        self.source = source
        shards = try [ThrowawayPostgres(), ThrowawayPostgres()]
        for shard in shards { try shard.psql("CREATE DATABASE \(Self.database)") }
        try home.psql("CREATE DATABASE \(Self.database)")
        var setup = """
            CREATE EXTENSION postgres_fdw;
            ALTER DATABASE \(Self.database) SET enable_partitionwise_aggregate = on;
            CREATE SCHEMA staging;
            CREATE SERVER home FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '\(home.folder)', dbname '\(source)');
            CREATE USER MAPPING FOR postgres SERVER home OPTIONS (user 'postgres');

            """
        setup += ThrowawayPostgres.shardSQL(shards, database: Self.database)
        try home.psql(setup, database: Self.database)
    }

    func stop() { shards.forEach { $0.stop() } }

    /// Copies the source database's table into a table of the same name partitioned by hash
    /// of its `k` or `g` column (else its first) over the shards, rows numbered in the order the
    /// source keeps them. The name utq reads the copy by.
    func copy(_ table: String) throws -> String {
        let connection = try PGConnection(uri: home.uri(source))
        let described = try connection.query("""
            SELECT quote_ident(attname), format_type(atttypid, atttypmod) FROM pg_attribute
            WHERE attrelid = '\(table)'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum
            """)
        let names = described.cells[0]
        let columns = zip(names, described.cells[1]).map { "\($0) \($1)" }.joined(separator: ", ")
        let comment = try connection.query("SELECT coalesce(obj_description('\(table)'::regclass, 'pg_class'), '')").cells[0][0]
        let key = names.first { $0 == "k" } ?? names.first { $0 == "g" } ?? names[0]
        for shard in shards {
            try shard.psql("DROP TABLE IF EXISTS \(table); CREATE TABLE \(table) (\(columns), utq_row bigint);", database: Self.database)
        }
        var sql = """
            DROP TABLE IF EXISTS \(table); DROP FOREIGN TABLE IF EXISTS staging.\(table);
            IMPORT FOREIGN SCHEMA public LIMIT TO (\(table)) FROM SERVER home INTO staging;
            CREATE TABLE \(table) (\(columns), utq_row bigint) PARTITION BY HASH (\(key));

            """
        for k in shards.indices {
            sql += "CREATE FOREIGN TABLE \(table)_p\(k) PARTITION OF \(table) FOR VALUES WITH (MODULUS 2, REMAINDER \(k)) SERVER shard\(k) OPTIONS (table_name '\(table)');\n"
        }
        sql += """
            INSERT INTO \(table) SELECT s.*, row_number() OVER () FROM staging.\(table) AS s;
            COMMENT ON TABLE \(table) IS \(connection.literal(comment));

            """
        try home.psql(sql, database: Self.database)
        return table
    }
}

extension PostgresCorpusTests.Checker {
    /// The figures of several checkers, added up.
    struct Figures {
        var checked = 0, compiled = 0, shardedChecked = 0, shardedCompiled = 0
        var steps = 0, stepsInDatabase = 0, shardedSteps = 0, shardedStepsInDatabase = 0
        var kept: [String: Int] = [:], shardedKept: [String: Int] = [:]

        mutating func add(_ c: PostgresCorpusTests.Checker) {
            checked += c.checked; compiled += c.compiled
            shardedChecked += c.shardedChecked; shardedCompiled += c.shardedCompiled
            steps += c.steps; stepsInDatabase += c.stepsInDatabase
            shardedSteps += c.shardedSteps; shardedStepsInDatabase += c.shardedStepsInDatabase
            kept.merge(c.keptInMemory, uniquingKeysWith: +)
            shardedKept.merge(c.shardedKeptInMemory, uniquingKeysWith: +)
        }

        var text: String {
            func list(_ kept: [String: Int]) -> String {
                kept.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "    \($0.value) × \($0.key)\n" }.joined()
            }
            return "  one server: \(checked) compared, \(compiled) compiled whole, \(checked - compiled) with a step kept in memory "
                + "(\(stepsInDatabase) of \(steps) steps in the database)\n" + list(kept)
                + "  shards: \(shardedChecked) compared, \(shardedCompiled) compiled whole, "
                + "\(shardedChecked - shardedCompiled) with a step kept in memory (\(shardedStepsInDatabase) of \(shardedSteps) steps in the database)\n"
                + list(shardedKept)
        }
    }
}
