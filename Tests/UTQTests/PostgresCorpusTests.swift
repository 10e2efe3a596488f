import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// The corpus on PostgreSQL: every script of the corpus, the golden cases and the examples
/// runs command by command, and each pipeline that reads loaded tables is run a second time
/// on the same rows saved into a throwaway PostgreSQL (its plan with each table's scan
/// pointing at the saved copy). Both must give the same table: the steps that compile to
/// SQL run there, the rest in memory after them, and neither may change a result.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresCorpusTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE corpus")
    }

    deinit { server.stop() }

    static func scripts() throws -> [String] {
        try ["Tests/Corpus", "Tests/Golden/cases", "examples"].flatMap { folder in
            try Repo.files(in: folder, ending: ".utq").map { "\(folder)/\($0)" }
        }
    }

    @Test(arguments: try scripts())
    func everyPipelineOverLoadedTablesGivesTheSameRowsInPostgreSQL(_ path: String) throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("corpus")) as db\ntables")
        let checker = Checker(session: s, tag: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
        var placements = ""
        for block in LiterateScript.blocks(in: SourceText(name: path, text: text)) {
            guard case .command(let command) = block else { continue }
            if case .query(let pipeline)? = try? Session.parse(command) {
                let result = try checker.check(pipeline, source: command.source)
                if let problem = result.problem { Issue.record("\(path):\(command.line): \(command.text)\n\(problem)") }
                if let placement = result.placement { placements += "# \(command.line): \(command.text)\n" + placement }
            }
            _ = s.execute(command)
        }
        print("postgres corpus: \(path): \(checker.checked) pipelines compared, \(checker.stepsInDatabase) of \(checker.steps) steps in PostgreSQL")
        // Scripts of errors, or charts of kept results, may have none.
        if !["errors", "charts-edge"].contains(checker.tag) {
            #expect(checker.checked > 0, "\(path): no pipeline was compared")
            // Scans of the database's tables always run there; a corpus where nothing above
            // them did would mean the SQL forms are lost.
            #expect(checker.stepsInDatabase > checker.checked, "\(path): only scans ran in PostgreSQL")
        }
        // The corpus's own scripts keep where each step ran as a snapshot beside them.
        if path.hasPrefix("Tests/Corpus/") {
            try Snapshot.check(placements, file: path.replacingOccurrences(of: ".utq", with: ".placement"))
        }
    }

    /// Compares one pipeline's runs: in memory, on the loaded tables' copies in the database,
    /// and (where `sharded` is set) on copies partitioned over shards; keeps the saved copies.
    final class Checker {
        let session: Session
        let tag: String
        var checked = 0
        var steps = 0, stepsInDatabase = 0
        /// The sharded side: given a table's name in the database (as `copy` saved it), the
        /// name of its copy partitioned over the shards, as utq reads it (`sh.name`).
        var sharded: ((String) throws -> String)?
        /// The pipelines compared on the shards.
        var shardedChecked = 0
        var shardedSteps = 0, shardedStepsInDatabase = 0
        /// Pipelines with every step above the scans in the database, and those with a step
        /// kept in memory, by the first reason placement gave (one server, then the shards).
        var compiled = 0, shardedCompiled = 0
        var keptInMemory: [String: Int] = [:], shardedKeptInMemory: [String: Int] = [:]
        /// Loaded table → its copy in the database, with the rows, columns and zone it was saved with
        /// (a floating time changes its instant with the zone).
        private var saved: [String: (name: String, rows: Int, columns: [String], zone: String)] = [:]
        /// A copy in the database → its sharded copy.
        private var shardedNames: [String: String] = [:]

        init(session: Session, tag: String) { self.session = session; self.tag = tag }

        /// Runs a pipeline on the loaded tables and on their saved copies. The problem is nil when
        /// all agree (or the pipeline is not one to compare), else the difference; the
        /// placement is where each step of the database's run ran.
        func check(_ pipeline: Pipeline, source: SourceText) throws -> (problem: String?, placement: String?) {
            let local = Interpreter(session: session, source: source)
            // A chart's rows are compared too; a save would write a file.
            guard let first = try? local.plan(pipeline) else { return (nil, nil) }
            if case .save = first.sink { return (nil, nil) }
            let plans = [first.plan] + first.probes.map(\.plan)
            let tables = Array(Set(plans.flatMap(\.scannedTables)))
            guard !tables.isEmpty, plans.allSatisfy(readsOnlyTables), tables.allSatisfy({ session.catalog[$0]?.database == nil }) else { return (nil, nil) }
            // A pipeline that fails in memory (the corpus has such on purpose) is not compared.
            let memoryTrace = PlacementTrace()
            guard let query = try? local.bind(pipeline), let rows = try? local.rows(of: query.plan, trace: memoryTrace) else { return (nil, nil) }
            // What ran is what explain's placement said.
            let memoryPlacement = try session.place(query.plan).placementText
            if memoryTrace.text != memoryPlacement {
                return ("in memory, the steps ran as\n\(memoryTrace.text)where placement said\n\(memoryPlacement)", nil)
            }
            var names: [String: String] = [:]
            for t in tables { names[t] = try copy(t) }
            let one = run(pipeline, source: source, names: names, side: "PostgreSQL")
            guard case .success(let server) = one else { if case .failure(let why) = one { return (why.text, nil) }; return (nil, nil) }
            checked += 1
            steps += server.placed.steps.count
            stepsInDatabase += server.placed.steps.filter { !$0.site.isMemory }.count
            Self.tally(server.placed, &compiled, &keptInMemory)
            if let why = difference(server.rows, rows) {
                return (why + "\n" + ((try? Interpreter(session: session, source: source, substitutes: names).explain(pipeline)) ?? ""), server.trace)
            }
            guard let sharded else { return (nil, server.trace) }
            var shardNames: [String: String] = [:]
            for (t, name) in names {
                let inDatabase = String(name.dropFirst(3))
                if shardedNames[inDatabase] == nil { shardedNames[inDatabase] = try sharded(inDatabase) }
                shardNames[t] = shardedNames[inDatabase]!
            }
            let onShards = run(pipeline, source: source, names: shardNames, side: "sharded PostgreSQL")
            guard case .success(let shards) = onShards else { if case .failure(let why) = onShards { return (why.text, server.trace) }; return (nil, server.trace) }
            shardedChecked += 1
            shardedSteps += shards.placed.steps.count
            shardedStepsInDatabase += shards.placed.steps.filter { !$0.site.isMemory }.count
            Self.tally(shards.placed, &shardedCompiled, &shardedKeptInMemory)
            if let why = difference(shards.rows, rows) {
                return ("on the shards: " + why + "\n" + ((try? Interpreter(session: session, source: source, substitutes: shardNames).explain(pipeline)) ?? ""), server.trace)
            }
            return (nil, server.trace)
        }

        struct Problem: Error { var text: String }
        struct Run { var rows: Table; var placed: PlacedPlan; var trace: String }

        /// The pipeline on the tables named (each loaded table → its copy); a failure is the problem to report.
        private func run(_ pipeline: Pipeline, source: SourceText, names: [String: String], side: String) -> Result<Run, Problem> {
            let remote = Interpreter(session: session, source: source, substitutes: names)
            let trace = PlacementTrace()
            do {
                let remoteQuery = try remote.bind(pipeline)
                let placed = try session.place(remoteQuery.plan)
                let rows = try remote.rows(of: remoteQuery.plan, trace: trace)
                if trace.text != placed.placementText {
                    return .failure(Problem(text: "in \(side), the steps ran as\n\(trace.text)where placement said\n\(placed.placementText)"))
                }
                return .success(Run(rows: rows, placed: placed, trace: trace.text))
            } catch {
                return .failure(Problem(text: "in \(side) it failed: \(error)\n" + ((try? remote.explain(pipeline)) ?? "")))
            }
        }

        /// How a database's rows differ from memory's: as multisets, then in order. utq fixes the
        /// order of every pipeline's rows (a table's own order, a summary's key order, a sort's,
        /// its ties in the order of its input), so every engine must give that order.
        private func difference(_ remote: Table, _ memory: Table) -> String? {
            if let why = tableDifference(remote, memory, ordered: false) { return why }
            if let why = tableDifference(remote, memory) {
                func rows(_ t: Table) -> String {
                    (0..<min(t.rowCount, 12)).map { i in "    " + t.columns.map { "\($0.value(at: i))" }.joined(separator: ", ") + "\n" }.joined()
                }
                return "the same rows in another order: \(why)\n  the database's first rows:\n\(rows(remote))  memory's:\n\(rows(memory))"
            }
            return nil
        }

        /// Counts a placed plan as compiled whole (every step but the loaded tables' reads in the
        /// database) or as kept in memory, under the first reason placement gave.
        private static func tally(_ placed: PlacedPlan, _ compiled: inout Int, _ kept: inout [String: Int]) {
            let reasons = placed.steps.compactMap { step -> String? in
                guard case .memory(let reason?) = step.site, !step.plan.is(ScanNode.self), !step.restoresKeyOrder else { return nil }
                return "\(step.plan.stepName): \(reason)"
            }
            // The step placement refused first, rather than those above it whose input runs in memory.
            let first = reasons.first { !$0.contains(": its input") } ?? reasons.first
            if let first { kept[first, default: 0] += 1 } else { compiled += 1 }
        }

        /// The database's copy of a loaded table, saved again when the table changed.
        private func copy(_ table: String) throws -> String {
            let t = session.catalog.table(table)!
            if let s = saved[table], s.rows == t.rowCount, s.columns == t.columnNames, s.zone == t.zone.identifier { return "db." + s.name }
            let name = "\(tag)_\(table)".lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            try session.table("`\(table)` | save! to db.\(name)\ntables")
            saved[table] = (name, t.rowCount, t.columnNames, t.zone.identifier)
            shardedNames[name] = nil
            return "db." + name
        }

        func readsOnlyTables(_ plan: LogicalPlan) -> Bool {
            if let scan = plan.as(ScanNode.self), case .result = scan.relation { return false }
            return plan.inputs.allSatisfy(readsOnlyTables)
        }
    }
}
