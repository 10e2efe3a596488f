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

    /// Compares one pipeline's two runs; keeps the saved copies of the session's tables.
    final class Checker {
        let session: Session
        let tag: String
        var checked = 0
        var steps = 0, stepsInDatabase = 0
        /// Loaded table → its copy in the database, with the rows, columns and zone it was saved with
        /// (a floating time changes its instant with the zone).
        private var saved: [String: (name: String, rows: Int, columns: [String], zone: String)] = [:]

        init(session: Session, tag: String) { self.session = session; self.tag = tag }

        /// Runs a pipeline on the loaded tables and on their saved copies. The problem is nil when
        /// both agree (or the pipeline is not one to compare), else the difference; the
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
            let remote = Interpreter(session: session, source: source, substitutes: names)
            let trace = PlacementTrace()
            let remoteRows: Table
            let placed: PlacedPlan
            do {
                let remoteQuery = try remote.bind(pipeline)
                placed = try session.place(remoteQuery.plan)
                remoteRows = try remote.rows(of: remoteQuery.plan, trace: trace)
            } catch {
                return ("in PostgreSQL it failed: \(error)\n" + ((try? remote.explain(pipeline)) ?? ""), nil)
            }
            checked += 1
            steps += placed.steps.count
            stepsInDatabase += placed.steps.filter { !$0.site.isMemory }.count
            if trace.text != placed.placementText {
                return ("in PostgreSQL, the steps ran as\n\(trace.text)where placement said\n\(placed.placementText)", trace.text)
            }
            if tableDifference(remoteRows, rows, ordered: false) == nil, tableDifference(remoteRows, rows) == nil || !query.plan.fixesOrder { return (nil, trace.text) }
            let why = tableDifference(remoteRows, rows, ordered: false) ?? tableDifference(remoteRows, rows) ?? ""
            return (why + "\n" + ((try? remote.explain(pipeline)) ?? ""), trace.text)
        }

        /// The database's copy of a loaded table, saved again when the table changed.
        private func copy(_ table: String) throws -> String {
            let t = session.catalog.table(table)!
            if let s = saved[table], s.rows == t.rowCount, s.columns == t.columnNames, s.zone == t.zone.identifier { return "db." + s.name }
            let name = "\(tag)_\(table)".lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            try session.table("`\(table)` | save! to db.\(name)\ntables")
            saved[table] = (name, t.rowCount, t.columnNames, t.zone.identifier)
            return "db." + name
        }

        func readsOnlyTables(_ plan: LogicalPlan) -> Bool {
            if let scan = plan.as(ScanNode.self), case .result = scan.relation { return false }
            return plan.inputs.allSatisfy(readsOnlyTables)
        }
    }
}

extension LogicalPlan {
    /// Whether the pipeline fixes the order of its rows: a sort or a summary by keys last
    /// (under steps that keep the order). Otherwise rows are compared as multisets.
    var fixesOrder: Bool {
        if self.is(SortNode.self) { return true }
        if let summary = self.as(AggregateNode.self) { return !summary.keys.isEmpty }
        if self.is(ProjectNode.self) || self.is(FilterNode.self) || self.is(LimitNode.self) { return inputs[0].fixesOrder }
        return false
    }
}
