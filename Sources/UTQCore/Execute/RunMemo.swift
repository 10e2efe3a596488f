import Foundation

/// Tables one command has already computed while it was bound, by the plan that made them.
/// `pivot` learns its columns from its input's rows before the plan can be run; with the input
/// kept here, running the plan takes it instead of computing it a second time.
public final class RunMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var tables: [String: Table] = [:]
    /// What running the kept tables noted (a text that is no time), told when the command's rows are.
    public let notes = RunNotes()

    public init() {}

    var isEmpty: Bool { lock.withLock { tables.isEmpty } }

    public func keep(_ table: Table, for plan: LogicalPlan) {
        let key = Self.key(plan)
        lock.withLock { tables[key] = table }
    }

    public func table(for plan: LogicalPlan) -> Table? {
        guard !isEmpty else { return nil }
        let key = Self.key(plan)
        return lock.withLock { tables[key] }
    }

    /// The plan as explain prints it, with its columns and their types: within one command, two plans
    /// alike in all of that compute the same rows.
    private static func key(_ plan: LogicalPlan) -> String {
        PlanPrinter.text(plan) + "\n" + plan.schema.fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
    }
}
