import Foundation

/// A question a step asks of the data before its plan can be made, as DuckDB's PIVOT without
/// IN asks for the key's values first: the values of a pivot's key, a feed's calendar. Binding
/// reads no rows; it asks, and a step that cannot be made without the answer is left pending.
/// The interpreter runs the probes (each placed as any plan is) and binds again with their
/// answers; `explain` runs nothing and shows the probes it would run.
public struct Probe: Sendable {
    /// Tells the probes of one command apart, and finds a probe's answer when the command is
    /// bound again: made by the step from what it asks (`feed.calendar`, `pivot 2`).
    public var key: String
    /// What it finds and for what, as explain says it: "the values of hour, for pivot's columns".
    public var purpose: String
    public var plan: LogicalPlan
    /// Whether the rows of the plan's input are kept for the step that asked, which reads them
    /// instead of computing them again (`rows of probe 1`): a pivot over rows in memory.
    public var keepsInput: Bool

    public init(key: String, purpose: String, plan: LogicalPlan, keepsInput: Bool = false) {
        self.key = key; self.purpose = purpose; self.plan = plan; self.keepsInput = keepsInput
    }
}

/// The answers of the probes one command has run, by key: the probe's rows, and the rows of
/// its input where it keeps them.
public struct ProbeAnswers: Sendable {
    public var rows: [String: Table] = [:]
    public var inputs: [String: Table] = [:]

    public init() {}

    public subscript(key: String) -> Table? { rows[key] }
}

/// The probes asked while one pipeline is bound, in the order they were asked.
final class ProbeRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var asked: [Probe] = []

    /// The probe's number as explain shows it (1 for the first asked), the same probe asked
    /// again keeping its number.
    func add(_ probe: Probe) -> Int {
        lock.withLock {
            if let k = asked.firstIndex(where: { $0.key == probe.key }) { return k + 1 }
            asked.append(probe)
            return asked.count
        }
    }

    var all: [Probe] { lock.withLock { asked } }
}

/// A step that cannot be made until probes have answered: what it will be, over the plan
/// below it (if any). It never runs; binding stops at it, and explain shows it with the
/// probes it waits for.
public struct PendingNode: PlanNode {
    public var input: LogicalPlan?
    /// The step as it will be, and what it waits for: "pivot hour: a column for each value of
    /// hour (probe 1)".
    public var description: String
    public var stepName: String

    public init(_ input: LogicalPlan?, stepName: String, description: String) {
        self.input = input; self.stepName = stepName; self.description = description
    }

    public var inputs: [LogicalPlan] { input.map { [$0] } ?? [] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> PendingNode { PendingNode(inputs.first, stepName: stepName, description: description) }
    /// Its columns are what the probes decide: none are known yet.
    public var schema: Schema { Schema(fields: [], zone: input?.schema.zone ?? .utc, timeColumn: nil) }
    public var explainLine: String { description }
    /// Where it runs, and so whether the order of its input's rows must be restored when they
    /// come back, is decided once it is made.
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { inputs.map { _ in false } }
}
