/// The text of `help`, made from the registries of verbs, functions, buckets and settings,
/// so it cannot drift from what the parser accepts.
public enum Help {
    public static func text(for topic: String?, span: SourceSpan? = nil) throws -> String {
        guard var topic = topic?.trimmingCharacters(in: .whitespaces).lowercased(), !topic.isEmpty else { return overview() }
        topic = topic.split(separator: " ").joined(separator: " ")
        // `help chart bar` is the same as `help bar`.
        if topic.hasPrefix("chart "), let kind = ChartKind.named(String(topic.dropFirst(6))) { return chartKind(kind) }
        if let spec = Verbs.spec(for: topic) { return verb(spec) }
        // Buckets before functions: hour is first a bucket (count by hour), then also hour(t).
        if let b = HelpTopics.buckets.first(where: { $0.name == topic }) {
            let call = b.name == "every" ? "" : "\nAlso a function, to read another time column: \(b.name)(dropped_off_at).\n"
            return entry(b) + call
        }
        if let f = Functions.spec(topic) { return function(f) }
        if let s = HelpTopics.settings.first(where: { $0.name == topic || $0.aliases.contains(topic) }) { return entry(s) }
        if let t = HelpTopics.topics.first(where: { $0.name == topic || $0.aliases.contains(topic) }) { return entry(t) }
        if let kind = ChartKind.named(topic) { return chartKind(kind) }
        switch topic {
        case "functions": return functions()
        case "buckets", "time": return list("Time buckets", HelpTopics.buckets)
        case "settings", "set": return list("Settings (set NAME VALUE)", HelpTopics.settings)
        case "charts", "kinds": return charts()
        case "tour": return Tour.help
        default: break
        }
        throw Diagnostic("no help on \"\(topic)\"" + Suggest.didYouMean(topic, among: topicNames), at: span,
                         hint: "type help for the list of verbs and topics")
    }

    /// Every name `help` knows, for suggestions.
    static var topicNames: [String] {
        Verbs.names + Functions.all.map(\.name) + HelpTopics.buckets.map(\.name) + HelpTopics.settings.map(\.name)
            + HelpTopics.topics.flatMap { [$0.name] + $0.aliases } + ChartKind.allCases.map(\.rawValue)
            + ["functions", "buckets", "settings", "charts", "tour"]
    }

    /// Each topic of help with the examples it shows: every verb, function, bucket, setting,
    /// kind of chart and general topic. The tests run every example, so help cannot drift
    /// from the language.
    public static var topics: [(topic: String, examples: [String])] {
        Verbs.all.map { ($0.name == "pNN" ? "p90" : $0.name, $0.examples) }
            + Functions.all.map { ($0.name, $0.examples) }
            + (HelpTopics.buckets + HelpTopics.settings + HelpTopics.topics).map { ($0.name, $0.examples) }
            + ChartKind.allCases.map { ($0.rawValue, $0.examples) }
    }

    public static func overview() -> String {
        var out = "utq — count and chart how a town moves.\n\n"
        for category in VerbSpec.Category.allCases {
            let specs = Verbs.all.filter { $0.category == category }
            if specs.isEmpty { continue }
            out += category.rawValue + "\n"
            for s in specs {
                out += "  " + s.name.padding(toLength: 10, withPad: " ", startingAt: 0) + s.summary + "\n"
            }
            out += "\n"
        }
        out += "More: help VERB, help functions, help buckets, help settings, help charts, help syntax.\n"
        out += "Teaching: help notebooks (results, :save, :record, utq notebook, --step), help tour.\n"
        out += "A line runs on the current table; start it with a table name to use another: rides | count by hour.\n"
        return out
    }

    static func verb(_ s: VerbSpec) -> String {
        var out = "\(s.name) — \(s.summary)\n\n  \(s.usage)\n"
        if !s.aliases.isEmpty { out += "  (also: " + s.aliases.joined(separator: ", ") + ")\n" }
        if !s.details.isEmpty { out += "\n" + s.details + "\n" }
        if !s.examples.isEmpty {
            out += "\nExamples\n" + s.examples.map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        return out
    }

    static func function(_ f: FunctionSpec) -> String {
        var out = "\(f.name) — \(f.summary)\n\n  \(f.usage)\n"
        if !f.examples.isEmpty { out += "\nExamples\n" + f.examples.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    static func functions() -> String {
        var out = "Functions (use them in where, let, select, sort and by)\n"
        for f in Functions.all {
            out += "  " + f.usage.padding(toLength: 36, withPad: " ", startingAt: 0) + f.summary + "\n"
        }
        out += "\nTime buckets also work as functions: hour(t), weekday(t), day(t), bucket(t, 15m). See help buckets.\n"
        return out
    }

    static func entry(_ e: HelpTopics.Entry) -> String {
        var out = "\(e.name) — \(e.summary)\n"
        if !e.details.isEmpty { out += "\n" + e.details + "\n" }
        if !e.examples.isEmpty { out += "\nExamples\n" + e.examples.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    static func chartKind(_ k: ChartKind) -> String {
        var out = ChartVerb.wrap("chart \(k.rawValue) — " + k.summary, indent: "") + "\n\n  \(k.usage)\n"
        if !k.aliases.isEmpty { out += "  (also: " + k.aliases.map { "chart " + $0 }.joined(separator: ", ") + ")\n" }
        out += "\nExamples\n" + k.examples.map { "  " + $0 }.joined(separator: "\n") + "\n"
        out += "\nEvery chart takes title \"TEXT\", width N, height N and to FILE.svg: see help chart.\n"
        return out
    }

    static func charts() -> String {
        "Kinds of chart (chart KIND, at the end of a pipeline)\n"
            + ChartKind.allCases.map { "  " + $0.usage.padding(toLength: 50, withPad: " ", startingAt: 0) + "help " + $0.rawValue }.joined(separator: "\n")
            + "\n\nOptions and files: help chart.\n"
    }

    static func list(_ title: String, _ entries: [HelpTopics.Entry]) -> String {
        title + "\n" + entries.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n") + "\n"
    }
}

