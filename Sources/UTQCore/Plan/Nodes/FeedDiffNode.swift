/// What changed from one GTFS feed to another (`a | diff b`): routes, stops and services, and
/// day by day the trips added, removed, retimed and rerouted, as rows of one table.
public struct FeedDiffNode: PlanNode, MemoryOnlyStep {
    /// The files each feed gives, in the order of its inputs: trips, stop_times and stops
    /// always, then those it has of routes, frequencies, calendar and calendar_dates.
    public var files: [[String]]
    public var names: [String]
    public var parts: [LogicalPlan]
    /// The days compared (days since 1970-01-01); nil: every day either calendar names.
    public var from: Int64?, to: Int64?

    public init(names: [String], files: [[String]], parts: [LogicalPlan], from: Int64?, to: Int64?) {
        self.names = names; self.files = files; self.parts = parts; self.from = from; self.to = to
    }

    public var inputs: [LogicalPlan] { parts }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> FeedDiffNode {
        FeedDiffNode(names: names, files: files, parts: inputs, from: from, to: to)
    }
    public var stepName: String { "diff" }
    public var whyInMemory: String { "comparing two feeds day by day has no SQL form" }
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { inputs.map { _ in false } }

    public var explainLine: String {
        let days: String
        if let from, let to {
            days = from == to ? "on \(ServiceDay(days: from, span: SourceSpan(0, 0)).text)"
                : "from \(ServiceDay(days: from, span: SourceSpan(0, 0)).text) to \(ServiceDay(days: to, span: SourceSpan(0, 0)).text)"
        } else {
            days = "over every day either calendar names"
        }
        return "diff \(names[0]) → \(names[1]): routes, stops and services, and the trips of each day \(days)"
    }

    public var schema: Schema {
        let zone = parts.first?.schema.zone ?? .utc
        return Schema(fields: [Field(name: "kind", type: .string), Field(name: "change", type: .string), Field(name: "id", type: .string),
                               Field(name: "route_id", type: .string), Field(name: "date", type: .timestamp, unit: .day),
                               Field(name: "detail", type: .string), Field(name: "metres", type: .double), Field(name: "shift", type: .duration)],
                      zone: zone, timeColumn: "date")
    }

    /// The tables of one feed (0 or 1) by file.
    func tables(_ side: Int, _ inputs: [Table]) -> [String: Table] {
        let offset = side == 0 ? 0 : files[0].count
        var out: [String: Table] = [:]
        for (k, file) in files[side].enumerated() { out[file] = inputs[offset + k] }
        return out
    }
}
