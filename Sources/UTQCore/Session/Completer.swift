import Foundation

/// Tab completion: what the word under the cursor can become, from the registry of
/// verbs, the loaded tables, the columns at that point of the pipeline, and the files.
public struct Completion: Sendable, Equatable {
    /// Byte offset in the line where the word being completed starts.
    public var start: Int
    /// Full replacements for that word, sorted.
    public var candidates: [String]
    /// Whether a unique candidate should be followed by a space.
    public var appendSpace: Bool
    /// How many of the first candidates are columns of the table at that point: they are
    /// what a word in a pipeline most often names, so they come before functions and words.
    public var columns: Int = 0

    /// What Tab does with the word typed so far, as bash and zsh do: one candidate (or one
    /// column among functions and keywords) replaces the word whole, with the space after;
    /// several that share more than was typed extend it to what they share; otherwise the
    /// candidates are listed. Tab again after an extension lists them, since there is
    /// nothing more to add.
    public enum TabStep: Equatable, Sendable {
        /// The word's new text (the candidate's spelling, so case typed differently follows it).
        case replace(String)
        case list
        case nothing
    }

    public func tabStep(typed: String) -> TabStep {
        guard let first = candidates.first else { return .nothing }
        if candidates.count == 1 || columns == 1 {
            return .replace(first + (appendSpace && !first.hasSuffix("/") ? " " : ""))
        }
        let shared = Completion.sharedPrefix(candidates)
        if shared.count > typed.count && shared.lowercased().hasPrefix(typed.lowercased()) { return .replace(shared) }
        return .list
    }

    /// The longest start all the words share, ignoring case, in the first word's spelling.
    static func sharedPrefix(_ words: [String]) -> String {
        guard var prefix = words.first.map(Array.init) else { return "" }
        for word in words.dropFirst() {
            let chars = Array(word)
            var n = 0
            while n < min(prefix.count, chars.count) && String(prefix[n]).lowercased() == String(chars[n]).lowercased() { n += 1 }
            prefix = Array(prefix[..<n])
        }
        return String(prefix)
    }

    /// The candidates as a list for the terminal, in columns: names from files and tables
    /// are shown with their control characters escaped, like every other text utq prints.
    public func listing(width: Int, limit: Int = 200) -> String {
        let shown = candidates.prefix(limit).map { TextWidth.printable($0) }
        let cell = (shown.map(TextWidth.of).max() ?? 0) + 2
        let perLine = max(1, width / cell)
        var text = ""
        for (i, c) in shown.enumerated() {
            text += TextWidth.pad(c, to: cell, right: false)
            if (i + 1) % perLine == 0 { text += "\n" }
        }
        if candidates.count > limit { text += "\n… \(candidates.count - limit) more" }
        if !text.hasSuffix("\n") { text += "\n" }
        return text
    }
}

/// Completes what is typed at the prompt from the registries (verbs, settings, session
/// commands, help topics), the loaded tables, the columns at that point of the pipeline,
/// and the files.
struct Completer {
    let session: Session

    var workspace: Workspace { session.workspace }
    var workingDirectory: String { session.workingDirectory }

    func complete(_ line: String, cursor: Int? = nil) -> Completion {
        let bytes = Array(line.utf8)
        let end = min(cursor ?? bytes.count, bytes.count)
        // The word under the cursor: stops at spaces and at pipeline punctuation.
        var start = end
        let stops: Set<UInt8> = [0x20, 0x09, 0x7C, 0x2C, 0x28, 0x29, 0x3D, 0x3C, 0x3E, 0x22, 0x27, 0x3B]
        while start > 0 && !stops.contains(bytes[start - 1]) { start -= 1 }
        let word = String(decoding: bytes[start..<end], as: UTF8.self)
        let before = String(decoding: bytes[0..<start], as: UTF8.self)
        // The current stage: text after the last pipe or `;`.
        let stageText = before.split(separator: "|", omittingEmptySubsequences: false).last.map(String.init) ?? before
        let stageWords = stageText.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let afterSemicolon = before.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? before
        let atLineStart = afterSemicolon.trimmingCharacters(in: .whitespaces).isEmpty
        let atStageStart = stageWords.isEmpty

        var pool: [String] = []
        // The columns among the pool, listed first.
        var columnNames: Set<String> = []
        var space = true
        if atStageStart {
            // After a pipe, only verbs that can stand in a pipeline.
            let verbs = atLineStart ? Verbs.all : Verbs.all.filter { $0.role != .statement }
            pool = verbs.flatMap { [$0.name] + $0.aliases }.filter { $0 != "?" }
            if atLineStart {
                pool += workspace.catalog.names
                pool += SessionCommands.all.map { ":" + $0.name } + SessionCommands.all.filter(\.bare).flatMap { [$0.name] + $0.aliases }
            }
        } else {
            let verb = stageWords[0].lowercased()
            let spec = Verbs.spec(for: verb)
            let argIndex = stageWords.count  // the word being typed is argument number argIndex
            // `save to DB.TABLE`, `save append to DB.TABLE`: the databases' tables; `save append`: then to.
            if spec?.name == "save", let last = stageWords.last?.lowercased() {
                if last == "to" {
                    let tables = workspace.catalog.names.filter { workspace.catalog[$0]?.database != nil && $0.lowercased().hasPrefix(word.lowercased()) }
                    return Completion(start: start, candidates: tables.sorted { TextOrder.less($0, $1) }, appendSpace: true)
                }
                if last == "append", argIndex == 2 {
                    return Completion(start: start, candidates: "to".hasPrefix(word.lowercased()) ? ["to"] : [], appendSpace: true)
                }
            }
            // `chart bar to FILE`: after to, a file name.
            if let last = stageWords.last?.lowercased(), last == "to" || last == "to!", spec?.keywords.contains("to") == true {
                return Completion(start: start, candidates: files(matching: word), appendSpace: false)
            }
            if verb.hasPrefix(":"), SessionCommands.spec(String(verb.dropFirst()))?.spec.name == "help" {
                pool = Help.topicNames
            } else {
                switch spec?.completes {
                case .keyword(let words)? where argIndex == 1:
                    pool = words
                case .file? where argIndex == 1:
                    // save's words (append, to) beside the files.
                    let words = spec?.name == "save" ? (spec?.keywords ?? []).filter { !word.isEmpty && $0.hasPrefix(word.lowercased()) } : []
                    return Completion(start: start, candidates: words + files(matching: word), appendSpace: !words.isEmpty && files(matching: word).isEmpty)
                case .table? where argIndex == 1 || (spec?.name == "join" && stageWords.count <= 2):
                    pool = workspace.catalog.names
                case .setting?:
                    if argIndex == 1 { pool = SettingsRegistry.names }
                    else { pool = SettingsRegistry.spec(stageWords[1])?.values(session) ?? [] }
                case .topic?:
                    pool = Help.topicNames
                default:
                    let columns = currentColumns(before: before)
                    columnNames = Set(columns)
                    pool = columns + (spec?.keywords ?? []) + TimeBucket.names + Functions.all.map(\.name)
                    if word.hasPrefix("$") { pool = workspace.results.keys.sorted().map { "$\($0)" }; columnNames = [] }
                }
                if spec?.name == "load" && argIndex > 1 { pool = spec?.keywords ?? []; columnNames = [] }
            }
        }
        let lower = word.lowercased()
        let found = Set(pool.filter { $0.lowercased().hasPrefix(lower) })
        let columnMatches = found.filter(columnNames.contains).sorted { TextOrder.less($0, $1) }
        var matches = columnMatches + found.subtracting(columnMatches).sorted { TextOrder.less($0, $1) }
        // Columns whose names need quoting are offered in backticks.
        matches = matches.map { m in
            m.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "." || $0 == "$" || $0 == ":" || $0 == "/" || $0 == "+" || $0 == "-" }) ? m : "`\(m)`"
        }
        if matches.count == 1 && matches[0].hasSuffix("/") { space = false }
        return Completion(start: start, candidates: matches, appendSpace: space, columns: columnMatches.count)
    }

    /// Columns available at the end of `before`: the pipeline so far is bound, so after
    /// `count by legend |` the columns are legend and count.
    func currentColumns(before: String) -> [String] {
        var text = before
        // Drop the unfinished stage.
        if let bar = text.lastIndex(of: "|") { text = String(text[..<bar]) } else { text = "" }
        if !text.trimmingCharacters(in: .whitespaces).isEmpty {
            let source = SourceText(name: "<completion>", text: text)
            if let command = Script.commands(in: source).last, let statement = try? Session.parse(command) {
                let binder = Binder(context: workspace.bindContext)
                var pipeline: Pipeline? = nil
                switch statement {
                case .query(let p), .assign(_, let p, _): pipeline = p
                case .command(let stage): pipeline = (stage.syntax as? ExplainVerb.Syntax)?.pipeline
                case .session: break
                }
                if let pipeline, let query = try? binder.bind(pipeline) { return query.plan.schema.names }
            }
        }
        // A line starting with a table name completes that table's columns.
        let first = before.split(whereSeparator: { $0 == " " || $0 == "|" }).first.map(String.init)
        if let first, let name = workspace.catalog.resolve(first), let t = workspace.catalog[name] { return t.schema.names }
        if let name = workspace.currentTable, let t = workspace.catalog[name] { return t.schema.names }
        return []
    }

    func files(matching word: String) -> [String] {
        var dirPart = ""
        var prefix = word
        if let slash = word.lastIndex(of: "/") {
            dirPart = String(word[...slash])
            prefix = String(word[word.index(after: slash)...])
        }
        var dir = dirPart.isEmpty ? workingDirectory : dirPart
        if dir.hasPrefix("~/") { dir = NSHomeDirectory() + String(dir.dropFirst(1)) }
        else if !dir.hasPrefix("/") && !dirPart.isEmpty {
            // A folder found as a load finds files: here, in the folders above, in the shipped
            // data. `load datasets/ma` completes where `load datasets/market.json` loads.
            dir = session.files.lookUp(dirPart).path
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        return names.filter { $0.hasPrefix(prefix) && (!$0.hasPrefix(".") || prefix.hasPrefix(".")) }
            .map { name in
                var isDir: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent(name), isDirectory: &isDir)
                return dirPart + name + (isDir.boolValue ? "/" : "")
            }
            .sorted()
    }
}
