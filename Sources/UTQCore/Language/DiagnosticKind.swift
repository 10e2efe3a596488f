/// The kinds of error a user meets most, with what is needed to word them. Tests assert
/// the kind; `DiagnosticText` words every kind in one place, and golden files keep the words.
public enum DiagnosticKind: Sendable, Equatable {
    /// Any other error: its words are its message.
    case message
    case unknownColumn(String, suggestion: String?, columns: [String])
    case unknownTable(String, suggestion: String?, tables: [String])
    /// A short name (`trips`) that ends more than one table's name.
    case ambiguousTable(String, candidates: [String])
    case unknownVerb(String, suggestion: String?)
    case unknownFunction(String, suggestion: String?)
    case unknownSetting(String, suggestion: String?)
    case unknownSessionCommand(String, suggestion: String?)
    case unknownResult(Int, known: [Int])
    case noLastResult
    case noTableLoaded
    /// A statement verb (load, set …) written as a stage of a pipeline.
    case statementInPipeline(verb: String)
    /// A source verb (tables) written after the start of a pipeline.
    case sourceNotFirst(verb: String)
    /// Something after a sink (save, chart), which ends a pipeline.
    case sinkNotLast(verb: String)
}

extension DiagnosticKind {
    /// The kind's name without what it carries: `unknownColumn`.
    public var name: String {
        let text = String(describing: self)
        return String(text.prefix { $0 != "(" })
    }
}

/// The words of each kind of diagnostic.
public enum DiagnosticText {
    public static func message(_ kind: DiagnosticKind) -> String {
        switch kind {
        case .message: return ""
        case .unknownColumn(let name, let suggestion, _): return "unknown column \"\(name)\"" + didYouMean(suggestion)
        case .unknownTable(let name, let suggestion, _):
            // A name that cannot be typed as it is (spaces, quotes) is suggested in backquotes.
            guard let suggestion, typed(suggestion) != suggestion else { return "unknown table \"\(name)\"" + didYouMean(suggestion) }
            return "unknown table \"\(name)\" — did you mean \(typed(suggestion))?"
        case .ambiguousTable(let name, let candidates): return "\"\(name)\" could be \(candidates.joined(separator: " or "))"
        case .unknownVerb(let name, let suggestion): return "unknown verb \"\(name)\"" + didYouMean(suggestion)
        case .unknownFunction(let name, let suggestion): return "unknown function \(name)" + didYouMean(suggestion)
        case .unknownSetting(let name, let suggestion): return "unknown setting \"\(name)\"" + didYouMean(suggestion)
        case .unknownSessionCommand(let name, let suggestion): return "unknown session command :\(name)" + didYouMean(suggestion)
        case .unknownResult(let n, _): return n == Int.max ? "there is no result with so large a number" : "there is no result $\(n)"
        case .noLastResult: return "there is no result yet for _ to stand for"
        case .noTableLoaded: return "no table is loaded yet"
        case .statementInPipeline(let verb): return "\(verb) is a command of its own; it cannot be part of a pipeline"
        case .sourceNotFirst(let verb): return "\(verb) starts a pipeline; it cannot follow |"
        case .sinkNotLast(let verb): return "\(verb) ends a pipeline; nothing can follow it"
        }
    }

    public static func hint(_ kind: DiagnosticKind) -> String? {
        switch kind {
        case .message: return nil
        case .ambiguousTable: return "write the full name"
        case .unknownColumn(let name, let suggestion, let columns):
            guard suggestion == nil else { return nil }
            // `sort count desc` on the raw rows: count only exists after a summary.
            if AggregateFunction.madeBySummary(name) {
                return "\(name) is made by a summary; put one first, as in: count by legend | sort count desc"
            }
            if columns.isEmpty { return "these rows have no columns" }
            // All of a table's usual width: the one wanted may be named otherwise (price, not fare).
            let shown = columns.count > 40 ? columns.prefix(36) : columns[...]
            let more = columns.count - shown.count
            return "the columns are: " + shown.joined(separator: ", ") + (more > 0 ? ", and \(more) more (describe lists them)" : "")
        case .unknownTable(let name, _, let tables) where ["clear", "cls"].contains(name.lowercased()) && !tables.contains(name):
            // A shell's habit at the prompt.
            return "Ctrl-L clears the screen; :clear forgets the numbered results [1], [2], …"
        case .unknownTable(let name, _, let tables):
            let known = tables.isEmpty ? "no tables are loaded; use load FILE" : "tables: " + tables.map(typed).joined(separator: ", ")
            // db.rides with no table under db.: perhaps a database that is not attached.
            guard let dot = name.firstIndex(of: "."), !tables.contains(where: { $0.hasPrefix(name[...dot]) }) else { return known }
            return known + "; or attach a database as \(name[..<dot]): attach postgresql:///dbname as \(name[..<dot])"
        case .unknownVerb(_, let suggestion):
            return suggestion == nil ? "type help to list the verbs" : nil
        case .unknownFunction: return "help functions lists them"
        case .unknownSetting: return "settings: " + SettingsRegistry.names.joined(separator: ", ")
        case .unknownSessionCommand: return "session commands: " + SessionCommands.all.map { ":" + $0.name }.joined(separator: ", ")
        case .unknownResult(_, let known):
            return known.isEmpty ? "results are numbered as they are shown: [1], [2], …" : "results so far: " + known.map { "$\($0)" }.joined(separator: ", ")
        case .noLastResult: return nil
        case .noTableLoaded: return "start with load FILE, for example: load datasets/market.json"
        case .statementInPipeline: return "put it on a line by itself"
        case .sourceNotFirst(let verb): return "start the line with it: \(verb) | …"
        case .sinkNotLast(let verb): return "put \(verb) last, or start a new line from its result: _ | …"
        }
    }

    /// A table's name as it can be typed: as it is when it is letters, digits, `_` and dots,
    /// else in backquotes (`db.Odd Name 2`).
    public static func typed(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
        return plain && !name.isEmpty ? name : "`\(name)`"
    }

    static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " — did you mean \"\($0)\"?" } ?? ""
    }
}
