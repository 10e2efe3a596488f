import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// The corpus on PostgreSQL: every script of the corpus, the golden cases and the examples
/// runs command by command, and each pipeline that reads loaded tables is run a second time
/// on the same rows saved into a throwaway PostgreSQL (its plan with each table's scan
/// pointing at the saved copy). Both must give the same table: the steps that compile to
/// SQL run there, the rest in memory after them, and neither may change a result.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.available, "PostgreSQL is not installed"))
final class PostgresCorpusTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE corpus")
    }

    deinit { server.stop() }

    static func scripts() -> [String] {
        func list(_ folder: String) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: Repo.path(folder))) ?? []
            return names.filter { $0.hasSuffix(".utq") }.sorted().map { "\(folder)/\($0)" }
        }
        return list("Tests/Corpus") + list("Tests/Golden/cases") + list("examples")
    }

    @Test(arguments: scripts())
    func everyPipelineOverLoadedTablesGivesTheSameRowsInPostgreSQL(_ path: String) throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("corpus")) as db\ntables")
        let checker = Checker(session: s, tag: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
        for block in LiterateScript.blocks(in: SourceText(name: path, text: text)) {
            guard case .command(let command) = block else { continue }
            if case .query(let pipeline)? = try? Session.parse(command) {
                if let problem = try checker.check(pipeline) { Issue.record("\(path):\(command.line): \(command.text)\n\(problem)") }
            }
            _ = s.execute(command)
        }
        print("postgres corpus: \(path): \(checker.checked) pipelines compared")
        // Scripts of errors, or charts of kept results, may have none.
        if !["errors", "charts-edge"].contains(checker.tag) {
            #expect(checker.checked > 0, "\(path): no pipeline was compared")
        }
    }

    /// Compares one pipeline's two runs; keeps the saved copies of the session's tables.
    final class Checker {
        let session: Session
        let tag: String
        var checked = 0
        /// Loaded table → its copy in the database, with the rows, columns and zone it was saved with
        /// (a floating time changes its instant with the zone).
        private var saved: [String: (name: String, rows: Int, columns: [String], zone: String)] = [:]

        init(session: Session, tag: String) { self.session = session; self.tag = tag }

        /// nil when both agree or the pipeline is not one to compare; the difference otherwise.
        func check(_ pipeline: Pipeline) throws -> String? {
            // A chart's rows are compared too; a save would write a file.
            guard let query = try? Binder(context: session.workspace.bindContext).bind(pipeline) else { return nil }
            if case .save = query.sink { return nil }
            let plan = query.plan
            let tables = plan.scannedTables
            guard !tables.isEmpty, readsOnlyTables(plan), tables.allSatisfy({ session.catalog[$0]?.database == nil }) else { return nil }
            let context = session.workspace.executionContext(cancel: nil, memoryLimit: nil)
            // A pipeline that fails in memory (the corpus has such on purpose) is not compared.
            guard let local = try? MemoryBackend().run(plan, in: context) else { return nil }
            var names: [String: String] = [:]
            for t in Set(tables) { names[t] = try copy(t) }
            let remotePlan = renamed(plan, names)
            let remote: Table
            do {
                remote = try session.backend(for: remotePlan).run(remotePlan, in: context)
            } catch {
                return "in PostgreSQL it failed: \(error)\n" + ((try? session.backend(for: remotePlan).explain(remotePlan)) ?? "")
            }
            checked += 1
            if tableDifference(remote, local, ordered: false) == nil, tableDifference(remote, local) == nil || !fixesOrder(plan) { return nil }
            let why = tableDifference(remote, local, ordered: false) ?? tableDifference(remote, local) ?? ""
            return why + "\n" + ((try? session.backend(for: remotePlan).explain(remotePlan)) ?? "")
        }

        /// The database's copy of a loaded table, saved again when the table changed.
        private func copy(_ table: String) throws -> String {
            let t = session.catalog[table]!
            if let s = saved[table], s.rows == t.rowCount, s.columns == t.columnNames, s.zone == t.zone.identifier { return "db." + s.name }
            let name = "\(tag)_\(table)".lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            try session.table("`\(table)` | save! to db.\(name)\ntables")
            saved[table] = (name, t.rowCount, t.columnNames, t.zone.identifier)
            return "db." + name
        }

        func readsOnlyTables(_ plan: LogicalPlan) -> Bool {
            if case .scan(.result, _) = plan { return false }
            return plan.inputs.allSatisfy(readsOnlyTables)
        }

        func renamed(_ plan: LogicalPlan, _ names: [String: String]) -> LogicalPlan {
            if case .scan(.table(let name), let schema) = plan { return .scan(.table(names[name] ?? name), schema: schema) }
            return plan.replacingInputs(plan.inputs.map { renamed($0, names) })
        }

        /// Whether the pipeline fixes the order of its rows: a sort or a summary by keys last
        /// (under steps that keep the order). Otherwise rows are compared as multisets.
        func fixesOrder(_ plan: LogicalPlan) -> Bool {
            switch plan {
            case .sort: return true
            case .aggregate(_, let keys, _, _): return !keys.isEmpty
            case .project(let input, _, _), .filter(let input, _), .limit(let input, _, _): return fixesOrder(input)
            default: return false
            }
        }
    }
}
