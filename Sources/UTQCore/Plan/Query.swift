/// A whole command's work: the plan of its rows and where they go.
public struct Query: Sendable {
    public var plan: LogicalPlan
    public var sink: Sink
    /// Said with the rows, whatever they are: what the answer leaves out.
    public var notes: [String] = []
    /// Probes binding asked that have not answered yet: the interpreter runs them and binds
    /// again; explain shows them.
    public var probes: [Probe] = []
    /// Stages after a step that waits for probes, not yet bound.
    public var unbound: [Stage] = []

    /// Whether the plan is whole: nothing waits for a probe.
    public var isComplete: Bool { probes.isEmpty && unbound.isEmpty && !plan.containsPending }
}

extension LogicalPlan {
    /// Whether a step of the plan waits for probes.
    public var containsPending: Bool { self.is(PendingNode.self) || inputs.contains { $0.containsPending } }
}

/// Where the rows of a query go.
public enum Sink: Sendable {
    /// Shown, and kept as a numbered result.
    case show
    /// Written to a file (`save`).
    case save(SaveRequest)
    /// Drawn (`chart`), for the terminal or into a file.
    case chart(ChartRequest)
}

