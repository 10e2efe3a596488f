/// The text of `help`, made from the registries of verbs, functions, buckets and settings,
/// so it cannot drift from what the parser accepts.
public enum Help {
    /// One thing `help` explains: the names it answers to, the examples it shows (the tests
    /// run every one), and its text.
    public struct Topic: Sendable {
        public let names: [String]
        public let examples: [String]
        let text: @Sendable () -> String

        public var name: String { names[0] }
    }

    /// The registry of help: every verb, bucket, function, setting, session command, kind
    /// of chart and general topic, in the order a name is looked up (hour is first a bucket,
    /// then also the function hour(t); set is the verb, settings the list).
    public static let registry: [Topic] = {
        var topics: [Topic] = []
        for spec in Verbs.all {
            let names = spec.name == "pNN" ? ["p90", "pnn"] : [spec.name] + spec.aliases
            topics.append(Topic(names: names, examples: spec.examples) { verb(spec) })
        }
        for b in HelpTopics.buckets {
            let call = b.name == "every" ? "" : "\nAlso a function, to read another time column: \(b.name)(dropped_off_at).\n"
            topics.append(Topic(names: [b.name] + b.aliases, examples: b.examples) { entry(b) + call })
        }
        for f in Functions.all {
            topics.append(Topic(names: [f.name] + f.aliases, examples: f.examples) { function(f) })
        }
        for s in SettingsRegistry.all {
            topics.append(Topic(names: [s.name] + s.aliases, examples: s.examples) { setting(s) })
        }
        for c in SessionCommands.all {
            topics.append(Topic(names: [":" + c.name] + c.aliases.map { ":" + $0 }, examples: []) { command(c) })
        }
        for t in HelpTopics.topics {
            topics.append(Topic(names: [t.name] + t.aliases, examples: t.examples) { entry(t) })
        }
        for k in ChartKind.allCases {
            topics.append(Topic(names: [k.rawValue] + k.aliases, examples: k.examples) { chartKind(k) })
        }
        topics.append(Topic(names: ["functions"], examples: []) { functions() })
        topics.append(Topic(names: ["buckets"], examples: []) { list("Time buckets", HelpTopics.buckets.map { ($0.name, $0.summary) }) })
        topics.append(Topic(names: ["settings"], examples: []) { list("Settings (set NAME VALUE; set alone shows their values)", SettingsRegistry.all.map { ($0.name, $0.summary) }) })
        topics.append(Topic(names: ["commands", "session"], examples: []) { commands() })
        topics.append(Topic(names: ["charts", "kinds"], examples: []) { charts() })
        topics.append(Topic(names: ["tour"], examples: []) { Tour.help })
        topics.append(Topic(names: ["gtfs"], examples: []) { gtfsNotices() })
        for n in GTFSNotices.all {
            topics.append(Topic(names: ["gtfs \(n.code)"], examples: []) { "\(n.code) (a GTFS notice)\n\n\(n.meaning)\n" })
        }
        return topics
    }()

    public static func text(for topic: String?, span: SourceSpan? = nil) throws -> String {
        guard var topic = topic?.trimmingCharacters(in: .whitespaces).lowercased(), !topic.isEmpty else { return overview() }
        topic = topic.split(separator: " ").joined(separator: " ")
        // `help chart bar` is the same as `help bar`.
        if topic.hasPrefix("chart "), let kind = ChartKind.named(String(topic.dropFirst(6))) { return chartKind(kind) }
        if let found = registry.first(where: { $0.names.contains(topic) }) { return found.text() }
        // `help time of day` is time_of_day; `help day-of-month` is day_of_month.
        let joined = topic.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
        if let found = registry.first(where: { $0.names.contains(joined) }) { return found.text() }
        // `help travel times`, `help route stats`: a verb written in two words (its second the
        // one word that may follow it) is its first word's.
        let words = topic.split(separator: " ").map(String.init)
        if words.count == 2, let spec = Verbs.spec(for: words[0]), spec.completes == .keyword([words[1]]),
           let found = registry.first(where: { $0.names.contains(spec.name) }) { return found.text() }
        if AggregateFunction.percentile(from: topic) != nil, let p = registry.first(where: { $0.names.contains("p90") }) { return p.text() }
        throw Diagnostic("no help on \"\(topic)\"" + Suggest.didYouMean(topic, among: topicNames), at: span,
                         hint: "type help for the list of verbs and topics")
    }

    /// Every name `help` knows, for suggestions and completion.
    public static var topicNames: [String] { registry.flatMap(\.names).filter { $0 != "?" && $0 != "pnn" } }

    /// Each topic of help with the examples it shows. The tests run every example, so help
    /// cannot drift from the language.
    public static var topics: [(topic: String, examples: [String])] {
        registry.filter { !$0.examples.isEmpty }.map { ($0.name, $0.examples) }
    }

    public static func overview() -> String {
        var out = "utq — count and chart how a town moves.\n\n"
        for category in VerbSpec.Category.allCases {
            let specs = Verbs.all.filter { $0.category == category }
            if specs.isEmpty { continue }
            out += category.rawValue + "\n"
            // A heading whose names are longer than the usual column (regr_intercept) widens its
            // own, keeping two spaces after the longest, which the wrapping reads as a list.
            let width = max(10, (specs.map(\.name.count).max() ?? 0) + 2)
            for s in specs {
                out += "  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0) + s.summary + "\n"
            }
            out += "\n"
        }
        // Lines that end short of 78 columns stay lines of their own when help is fitted to
        // a narrower terminal (TextWrap).
        out += "More: help VERB (help count), help functions, help buckets, help settings,\n"
        out += "help charts, help syntax, help commands, help keys.\n"
        out += "Teaching: help notebooks (results, :save, :record, --step), help tour.\n"
        out += "A line runs on the current table; start it with a table name to use another:\n"
        out += "  rides | count by hour\n"
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

    static func setting(_ s: SettingSpec) -> String {
        var out = "\(s.name) — \(s.summary)\n\n  set \(s.name) VALUE\n"
        if !s.aliases.isEmpty { out += "  (also: " + s.aliases.joined(separator: ", ") + ")\n" }
        if !s.details.isEmpty { out += "\n" + s.details + "\n" }
        out += "\nExamples\n" + s.examples.map { "  " + $0 }.joined(separator: "\n") + "\n"
        return out
    }

    static func command(_ c: SessionCommandSpec) -> String {
        var out = ":\(c.name) — \(c.summary)\n\n  \(c.usage.hasPrefix(":") || c.bare ? c.usage : ":" + c.usage)\n"
        if c.bare { out += "  (also without the colon, alone on a line: \(c.name))\n" }
        return out
    }

    static func commands() -> String {
        "Session commands (about the session, not the data)\n"
            + SessionCommands.all.map { "  " + $0.usage + String(repeating: " ", count: max(2, 40 - $0.usage.count)) + $0.summary }.joined(separator: "\n") + "\n"
    }

    static func entry(_ e: HelpTopics.Entry) -> String {
        var out = "\(e.name) — \(e.summary)\n"
        if !e.details.isEmpty { out += "\n" + e.details + "\n" }
        if !e.examples.isEmpty { out += "\nExamples\n" + e.examples.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        return out
    }

    /// The codes GTFS warnings end with, and what each means for an analysis.
    static func gtfsNotices() -> String {
        "GTFS notices: a feed's warnings end with one, named as gtfs-validator names them.\n\n"
            + GTFSNotices.all.map { "  \($0.code)\n      \($0.meaning)\n" }.joined()
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

    static func list(_ title: String, _ entries: [(name: String, summary: String)]) -> String {
        // Two spaces at least after the longest name: the summaries stand as a column.
        let column = max(14, (entries.map(\.name.count).max() ?? 0) + 2)
        return title + "\n" + entries.map { "  " + $0.name.padding(toLength: column, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n") + "\n"
    }
}

