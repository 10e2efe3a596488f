/// Its input with the missing buckets of a time or number key added (`fill`), zero in the
/// columns of counts and sums.
public struct FillNode: PlanNode {
    public var input: LogicalPlan
    public var spec: FillSpec

    public init(_ input: LogicalPlan, _ spec: FillSpec) { self.input = input; self.spec = spec }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> FillNode { FillNode(inputs[0], spec) }
    public var schema: Schema {
        var s = input.schema
        s.keyOrder = nil
        return s
    }
    public var stepName: String { "fill" }

    public var explainLine: String {
        let schema = input.schema
        let zeros = spec.zeroColumns.sorted().map { schema.fields[$0].name }
        return "fill \(schema.fields[spec.key].name) every \(spec.step.text)" + (zeros.isEmpty ? "" : ", zero " + zeros.joined(separator: ", "))
    }
}

/// What `fill` does, decided when it is bound: the key it steps along, how it steps, the
/// other keys every combination is made for, and the columns new rows hold zero in.
public struct FillSpec: Sendable {
    public var key: Int
    public var step: FillStep
    public var otherKeys: [Int]
    public var zeroColumns: Set<Int>
}

/// How `fill` steps between buckets.
public enum FillStep: Sendable, Equatable {
    /// Integer keys such as hour of day: every integer between the first and last.
    case integer
    /// Time keys: a fixed span (`every 15m`, `minute`, `day`).
    case micros(Int64)
    /// Calendar months (`month`).
    case months(Int)

    var text: String {
        switch self {
        case .integer: return "1"
        case .micros(let m): return TimeText.duration(m)
        case .months(let n): return "\(n) month\(n == 1 ? "" : "s")"
        }
    }
}
