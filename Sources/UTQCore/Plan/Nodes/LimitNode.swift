/// The first rows of its input, after skipping some (`limit`, `top`).
public struct LimitNode: PlanNode {
    public var input: LogicalPlan
    public var count: Int
    public var offset: Int

    public init(_ input: LogicalPlan, count: Int, offset: Int) { self.input = input; self.count = count; self.offset = offset }

    /// A limit over its input; over a sort, the sort is told how many rows are wanted.
    public static func over(_ input: LogicalPlan, count: Int, offset: Int = 0) -> LogicalPlan {
        guard var sort = input.as(SortNode.self) else { return LogicalPlan(LimitNode(input, count: count, offset: offset)) }
        let (wanted, overflow) = count.addingReportingOverflow(offset)
        sort.wanted = overflow ? nil : min(wanted, sort.wanted ?? .max)
        return LogicalPlan(LimitNode(LogicalPlan(sort), count: count, offset: offset))
    }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> LimitNode { LimitNode(inputs[0], count: count, offset: offset) }
    public var schema: Schema { input.schema }
    public var stepName: String { "limit" }
    public var keepsInputOrder: Bool { true }
    /// Which rows are kept depends on their order, whatever is done with them after.
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { [true] }
    public var explainLine: String { "limit \(count)" + (offset > 0 ? " offset \(offset)" : "") }
}
