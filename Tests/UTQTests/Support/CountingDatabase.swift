import Foundation
@testable import UTQCore

/// An attached database for tests that holds its tables in memory, takes every step a plan
/// has, and counts the queries it is sent: what placement sends, and when.
final class CountingDatabase: AttachedDatabase, @unchecked Sendable {
    let name: String
    var kind: String { "a counting test database" }
    var location: String { "memory" }
    private var held = Catalog()
    private let lock = NSLock()
    private var sent: [LogicalPlan] = []

    /// A database called `name` holding the tables given, as `name.table`.
    init(name: String, tables: [Table]) {
        self.name = name
        for var t in tables {
            t.name = "\(name).\(t.name)"
            held.put(t)
        }
    }

    /// The plans it was sent, in order.
    var queries: [LogicalPlan] { lock.withLock { sent } }

    func tables() throws -> [RemoteTable] {
        held.loadedTables.map { RemoteTable(name: $0.name, database: name, schema: Schema($0)) }
    }

    func save(_ table: Table, as tableName: String, replace: Bool, cancel: CancellationFlag?) throws -> Int {
        throw TestError(description: "the counting database takes no saves")
    }

    func close() {}

    var copyLimit: Int { 0 }

    struct Step: DatabaseStep {
        let plan: LogicalPlan
        var givesKeyOrder: Bool { false }
    }

    func compile(_ step: LogicalPlan, inputs: [any DatabaseStep], orderMatters: Bool) throws -> any DatabaseStep {
        if step.is(PendingNode.self) { throw NotInDatabase("it waits for a probe") }
        let plans = inputs.map { ($0 as! Step).plan }
        return Step(plan: plans.isEmpty ? step : step.replacingInputs(plans))
    }

    func compileCopy(of table: Table, named name: String, index: Int) -> any DatabaseStep {
        Step(plan: LogicalPlan(ScanNode(.table(name), schema: Schema(table))))
    }

    func fragment(_ step: any DatabaseStep, schema: Schema) -> any RemoteFragment {
        Fragment(owner: self, plan: (step as! Step).plan)
    }

    struct Fragment: RemoteFragment {
        let owner: CountingDatabase
        let plan: LogicalPlan
        var database: String { owner.name }
        var explainText: String { "sent to \(owner.name):\n" + PlanPrinter.text(plan) }
        var copies: [(name: String, rows: Int)] { [] }

        func run(_ context: ExecutionContext) throws -> Table {
            owner.lock.withLock { owner.sent.append(plan) }
            return try plan.runInMemory(ExecutionContext(catalog: owner.held))
        }
    }
}

extension Session {
    /// Attaches a database made in the test, as `attach` does (its tables keep their zones).
    func attach(_ database: any AttachedDatabase) throws {
        databases[database.name] = database
        workspace.put(try database.tables().map { .remote($0) }, makeCurrent: false)
    }

    /// What `explain` prints for a line.
    func explainText(_ line: String) throws -> String {
        var text = ""
        var failure: Diagnostic? = nil
        run("explain " + line, name: "<test>") { _, outcome in
            failure = outcome.error
            for case .text(let t) in outcome.outputs { text += t }
        }
        if let failure { throw TestError(description: failure.message) }
        return text
    }
}
