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

public enum JoinKind: String, Sendable { case inner, left }

/// Where a pipeline's rows come from.
public enum PipelineSource: Sendable {
    /// The current table (a line that starts with a verb).
    case current
    case table(String, SourceSpan)
    case result(Int, SourceSpan)
    /// `_`: the last result.
    case last(SourceSpan)
}

/// A verb and its arguments.
public struct Stage: Sendable {
    public var verb: String
    public var span: SourceSpan
    public var args: StageArgs
}

public enum StageArgs: Sendable {
    case load(path: String, alias: String?, at: String?)
    case use(String)
    case tables
    case describe(String?)
    case filter(Expr)
    case aggregate([AggregateItem], by: [GroupKey])
    case distinct([Expr])
    case sort([SortKey])
    case top(Int, by: [SortKey])
    case limit(Int, offset: Int)
    case select([SelectItem])
    /// `let a = x, b = y`: new columns, each seeing the ones before it.
    case derive([(name: String, expr: Expr)])
    case rename([(from: String, to: String)])
    case join(table: PipelineSource, kind: JoinKind, on: [(Expr, Expr)])
    case fill(step: Int64?)
    case set(name: String, value: String, valueSpan: SourceSpan)
    case save(path: String, force: Bool)
    case help(String?)
    case chart(ChartRequest)
}

/// `chart KIND [COLUMN] [options] [to FILE]`: which chart to draw from the rows that reach
/// it, and where to put it. The kinds and options are listed in `ChartKind` and `ChartOptions`.
public struct ChartRequest: Sendable {
    public var kind: ChartKind
    /// The column to measure (hist: the column to bin; map: the column that picks the glyph).
    public var column: String?
    public var options: ChartOptions
    /// `to FILE`: .svg for a picture, .txt for the drawing as it prints.
    public var file: String?
    /// `to! FILE` (or `chart! …`): replace a file that exists.
    public var replace: Bool
    public var span: SourceSpan
    public var columnSpan: SourceSpan?
    public var fileSpan: SourceSpan?

    public init(kind: ChartKind, column: String? = nil, options: ChartOptions = ChartOptions(), file: String? = nil,
                replace: Bool = false, span: SourceSpan = SourceSpan(0, 0), columnSpan: SourceSpan? = nil, fileSpan: SourceSpan? = nil) {
        self.kind = kind; self.column = column; self.options = options; self.file = file; self.replace = replace
        self.span = span; self.columnSpan = columnSpan; self.fileSpan = fileSpan
    }
}

public struct Pipeline: Sendable {
    public var source: PipelineSource
    public var stages: [Stage]
    public var span: SourceSpan
}

/// One command of a script.
public enum Statement: Sendable {
    case pipeline(Pipeline)
    /// `let busy = count by hour`: keeps a result under a name.
    case assign(name: String, Pipeline, SourceSpan)
    /// `:save lesson.utq`, `:record notes.md`, `:quit`, `history`: session commands.
    case meta(command: String, argument: String?, SourceSpan)
}
