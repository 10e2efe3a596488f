/// What a verb is: its name, how it is written, what it does, and how its arguments parse.
/// The one list of these (`Verbs.all`) feeds the parser, `help` and tab completion.
public struct VerbSpec: Sendable {
    public enum Category: String, Sendable, CaseIterable {
        case source = "Loading and tables"
        case rows = "Choosing rows"
        case summary = "Counting and summarising"
        case columns = "Columns"
        case output = "Output"
        case session = "Session"
    }

    /// What an argument position completes to.
    public enum ArgumentKind: Sendable, Equatable {
        case column, table, file, setting, keyword([String]), none
    }

    public let name: String
    public let aliases: [String]
    public let category: Category
    /// One line: `count [distinct COL] [, AGG …] [by KEY, …]`.
    public let usage: String
    /// One sentence.
    public let summary: String
    /// A paragraph or two for `help VERB`.
    public let details: String
    /// Lines that run on the shipped datasets; the tests run every one.
    public let examples: [String]
    /// What to complete after the verb.
    public let completes: ArgumentKind
    /// Keywords that may follow inside this verb (`by`, `as`, `desc`), for completion.
    public let keywords: [String]
    let parse: @Sendable (inout Parser, Token) throws -> StageArgs

    init(name: String, aliases: [String] = [], category: Category, usage: String, summary: String,
         details: String = "", examples: [String] = [], completes: ArgumentKind = .column, keywords: [String] = [],
         parse: @escaping @Sendable (inout Parser, Token) throws -> StageArgs) {
        self.name = name; self.aliases = aliases; self.category = category; self.usage = usage
        self.summary = summary; self.details = details; self.examples = examples
        self.completes = completes; self.keywords = keywords; self.parse = parse
    }
}

/// The registry of verbs.
public enum Verbs {
    public static let all: [VerbSpec] = [
        LoadVerb.spec, UseVerb.spec, TablesVerb.spec, DescribeVerb.spec,
        WhereVerb.spec, SortVerb.spec, TopVerb.spec, LimitVerb.spec, DistinctVerb.spec,
    ] + AggregateVerb.specs + [
        SelectVerb.spec, LetVerb.spec, RenameVerb.spec, JoinVerb.spec, FillVerb.spec,
        ChartVerb.spec, SaveVerb.spec, SetVerb.spec, HelpVerb.spec,
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
