/// What a verb is: its name, how it is written, where it may stand in a line, how its
/// arguments parse, and what they become. Each verb is one file that defines its `spec` and
/// the syntax its parse gives; one list of specs (`Verbs.all`) feeds the parser, `help`,
/// tab completion and the tables of docs/language.md.
public struct VerbSpec: Sendable {
    /// The headings `help` groups verbs under.
    public enum Category: String, Sendable, CaseIterable {
        case source = "Loading and tables"
        case rows = "Choosing rows"
        case summary = "Counting and summarising"
        case columns = "Columns"
        case transit = "Transit feeds"
        case output = "Output"
        case session = "Session"
    }

    /// What an argument position completes to.
    public enum ArgumentKind: Sendable, Equatable {
        case column, table, file, setting, topic, keyword([String]), none
    }

    public let name: String
    public let aliases: [String]
    public let category: Category
    public let role: VerbRole
    /// One line: `count [distinct COL] [, AGG …] [by KEY, …]`.
    public let usage: String
    /// One sentence.
    public let summary: String
    /// A paragraph or two for `help VERB`, made when help asks (some are built from tables
    /// of kinds and options: made with the registry, they were a tenth of starting).
    public var details: String { makeDetails() }
    private let makeDetails: @Sendable () -> String
    /// Lines that run on the shipped datasets; the tests run every one.
    public let examples: [String]
    /// What to complete after the verb.
    public let completes: ArgumentKind
    /// Keywords that may follow inside this verb (`by`, `as`, `desc`), for completion.
    public let keywords: [String]
    /// Whether its usage helps with its errors: not for load, whose errors are about files.
    let usageHelps: Bool
    let parse: @Sendable (inout Parser, Token) throws -> any VerbSyntax

    init(name: String, aliases: [String] = [], category: Category, role: VerbRole = .stage, usage: String, summary: String,
         details: @autoclosure @escaping @Sendable () -> String = "", examples: [String] = [], completes: ArgumentKind = .column, keywords: [String] = [],
         usageHelps: Bool = true, parse: @escaping @Sendable (inout Parser, Token) throws -> any VerbSyntax) {
        self.name = name; self.aliases = aliases; self.category = category; self.role = role; self.usage = usage
        self.summary = summary; self.makeDetails = details; self.examples = examples
        self.completes = completes; self.keywords = keywords; self.usageHelps = usageHelps; self.parse = parse
    }
}

extension Stage {
    /// Runs work on behalf of this verb: an error without a place points at the verb, and
    /// one about how the verb is written (inside its words) carries its usage.
    func locating<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch var d as Diagnostic {
            if d.span == nil { d.span = span }
            if d.usage == nil, spec.usageHelps, let at = d.span, at.start >= span.start && at.start <= span.end {
                d.usage = spec.usage
            }
            throw d
        }
    }
}

/// Where a verb may stand. The parser enforces it before anything runs.
public enum VerbRole: String, Sendable, CaseIterable {
    /// Acts on the session and stands on a line of its own: load, use, set, help, explain.
    case statement
    /// Gives rows without reading any, so it starts a pipeline: tables.
    case source
    /// Turns rows into rows: where, count, sort, let … anywhere after the source.
    case stage
    /// Takes the rows somewhere: save, chart. It ends a pipeline.
    case sink
}

/// A verb's arguments as written: what its parse gives.
public protocol VerbSyntax: Sendable {
    /// The arguments as syntax snapshots show them, as in `legend = "Bike"`.
    var syntax: String { get }
}

/// A source: rows that come from the session rather than from an input.
protocol SourceSyntax: VerbSyntax {
    func bind(_ binder: Binder) throws -> LogicalPlan
}

/// A stage: the plan of its rows, made from the plan of the rows that reach it.
protocol StageSyntax: VerbSyntax {
    func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan
    /// A stage that names its own input (`describe market`) starts the pipeline from it.
    var namedInput: PipelineSource? { get }
}

extension StageSyntax {
    var namedInput: PipelineSource? { nil }
}

/// A sink: where the rows of a pipeline go instead of being shown.
protocol SinkSyntax: VerbSyntax {
    func bind(_ input: LogicalPlan, _ binder: Binder) throws -> Sink
}

/// A statement: acts on the session (loads a file, changes a setting, explains a plan).
protocol StatementSyntax: VerbSyntax {
    func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws
}

/// The registry of verbs: one line per verb file.
public enum Verbs {
    public static let all: [VerbSpec] = [
        LoadVerb.spec,
        AttachVerb.spec,
        UseVerb.spec,
        TablesVerb.spec,
        DescribeVerb.spec,
        WhereVerb.spec,
        SortVerb.spec,
        TopVerb.spec,
        LimitVerb.spec,
        DistinctVerb.spec,
    ] + AggregateVerb.specs + AggregateVerb.pairSpecs + [
        UnionVerb.spec,
        SelectVerb.spec,
        LetVerb.spec,
        RenameVerb.spec,
        JoinVerb.spec,
        FillVerb.spec,
        PivotVerb.spec,
        UnpivotVerb.spec,
        ServiceVerb.spec,
        DeparturesVerb.spec,
        SegmentsVerb.spec,
        TravelTimesVerb.spec,
        DiffVerb.spec,
        HeadwaysVerb.spec,
        SpanVerb.spec,
        DelaysVerb.spec,
        PeakVehiclesVerb.spec,
        RouteStatsVerb.spec,
        ChartVerb.spec,
        SaveVerb.spec,
        ExplainVerb.spec,
        SetVerb.spec,
        EchoVerb.spec,
        HelpVerb.spec,
    ]

    private static let byName: [String: VerbSpec] = {
        var map: [String: VerbSpec] = [:]
        for spec in all {
            map[spec.name] = spec
            for a in spec.aliases { map[a] = spec }
        }
        return map
    }()

    /// Verb names and aliases, for suggestions and completion.
    public static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }

    public static func spec(for word: String) -> VerbSpec? {
        let w = word.lowercased()
        if let s = byName[w] { return s }
        if AggregateFunction.percentile(from: w) != nil { return AggregateVerb.percentileSpec }
        return nil
    }
}
