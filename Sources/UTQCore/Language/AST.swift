/// The syntax tree of one command, as written (names not yet checked against tables).

public indirect enum Expr: Sendable {
    case column(String, SourceSpan)
    case literal(Value, SourceSpan)
    case unary(UnaryOp, Expr, SourceSpan)
    case binary(BinaryOp, Expr, Expr, SourceSpan)
    case call(String, [Expr], SourceSpan)
    case inList(Expr, [Expr], negated: Bool, SourceSpan)
    case isNull(Expr, negated: Bool, SourceSpan)
    case between(Expr, Expr, Expr, negated: Bool, SourceSpan)

    public var span: SourceSpan {
        switch self {
        case .column(_, let s), .literal(_, let s), .unary(_, _, let s), .binary(_, _, _, let s),
             .call(_, _, let s), .inList(_, _, _, let s), .isNull(_, _, let s), .between(_, _, _, _, let s):
            return s
        }
    }
}

extension Expr {
    /// The depth of the tree, measured without recursion (the tree may be deeper than the
    /// stack allows).
    public var depth: Int {
        var deepest = 0
        var stack: [(Expr, Int)] = [(self, 1)]
        while let (e, d) = stack.popLast() {
            deepest = max(deepest, d)
            switch e {
            case .column, .literal: break
            case .unary(_, let x, _), .isNull(let x, _, _): stack.append((x, d + 1))
            case .binary(_, let l, let r, _): stack.append((l, d + 1)); stack.append((r, d + 1))
            case .call(_, let args, _): for a in args { stack.append((a, d + 1)) }
            case .inList(let x, let items, _, _): stack.append((x, d + 1)); for a in items { stack.append((a, d + 1)) }
            case .between(let x, let lo, let hi, _, _): stack.append((x, d + 1)); stack.append((lo, d + 1)); stack.append((hi, d + 1))
            }
        }
        return deepest
    }
}

public enum UnaryOp: String, Sendable { case negate = "-", not }

public enum BinaryOp: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", modulo = "%"
    case equal = "=", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case and, or
    case contains, startsWith = "starts with", endsWith = "ends with", matches

    public var isComparison: Bool {
        switch self {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
        default: return false
        }
    }
    public var isArithmetic: Bool {
        switch self {
        case .add, .subtract, .multiply, .divide, .modulo: return true
        default: return false
        }
    }
}

/// A key in a `by` list: an expression (a column, `hour`, `hour(t)`) or a fixed span (`every 15m`).
public struct GroupKey: Sendable {
    public enum Kind: Sendable {
        case expr(Expr)
        case every(Int64, column: Expr?)
    }
    public var kind: Kind
    public var alias: String?
    public var span: SourceSpan
}

/// One aggregate in a summarising verb: `count`, `avg angle`, `p90 wait as slow`.
public struct AggregateItem: Sendable {
    public var function: AggregateFunction
    public var argument: Expr?
    /// The second column of a two-column summary: x in `regr_slope(y, x)`.
    public var second: Expr? = nil
    public var distinct: Bool
    public var alias: String?
    public var span: SourceSpan
}

public struct SortKey: Sendable {
    public var expr: Expr
    public var descending: Bool
    public var span: SourceSpan
}

public struct SelectItem: Sendable {
    public enum Kind: Sendable {
        case expr(Expr, alias: String?)
        /// `-note`: every column but this one.
        case exclude(String)
        /// `*`: every column.
        case all
    }
    public var kind: Kind
    public var span: SourceSpan
}

public enum JoinKind: String, Sendable { case inner, left, cross }

/// Where a pipeline's rows come from.
public enum PipelineSource: Sendable {
    /// The current table (a line that starts with a verb).
    case current
    case table(String, SourceSpan)
    case result(Int, SourceSpan)
    /// `_`: the last result.
    case last(SourceSpan)
    /// A source verb: `tables`.
    case verb(Stage)
    /// `(market | where legend = "Jogging")`: a pipeline in parentheses, where `union` and
    /// `join` take a table.
    indirect case pipeline(Pipeline)
}

/// A verb as written: which verb, where, and its arguments (the verb's own syntax type).
public struct Stage: Sendable {
    public var spec: VerbSpec
    public var span: SourceSpan
    public var syntax: any VerbSyntax

    public var verb: String { spec.name }
}

/// Rows from a source, through stages, shown or sent to a sink (save, chart).
public struct Pipeline: Sendable {
    public var source: PipelineSource
    public var stages: [Stage]
    /// Where the rows go; nil: they are shown as a numbered result.
    public var sink: Stage?
    public var span: SourceSpan
}

/// One command of a script.
public enum Statement: Sendable {
    case query(Pipeline)
    /// A statement verb on a line of its own: load, use, set, help, explain.
    case command(Stage)
    /// `let busy = count by hour`: keeps a result under a name.
    case assign(name: String, Pipeline, SourceSpan)
    /// `:save lesson.utq`, `:record notes.md`, `history`, `quit`: session commands.
    case session(SessionCommand, argument: String?, SourceSpan)
}
