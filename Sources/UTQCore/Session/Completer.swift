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
}

extension Session {
    public func complete(_ line: String, cursor: Int? = nil) -> Completion {
        let bytes = Array(line.utf8)
        let end = min(cursor ?? bytes.count, bytes.count)
        // The word under the cursor: stops at spaces and at pipeline punctuation.
        var start = end
        let stops: Set<UInt8> = [0x20, 0x09, 0x7C, 0x2C, 0x28, 0x29, 0x3D, 0x3C, 0x3E, 0x22, 0x27, 0x3B]
        while start > 0 && !stops.contains(bytes[start - 1]) { start -= 1 }
        let word = String(decoding: bytes[start..<end], as: UTF8.self)
        let before = String(decoding: bytes[0..<start], as: UTF8.self)
        // The current stage: text after the last pipe (outside quotes) or `;`.
        let stageText = before.split(separator: "|", omittingEmptySubsequences: false).last.map(String.init) ?? before
        let stageWords = stageText.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let afterSemicolon = before.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? before
        let atLineStart = afterSemicolon.trimmingCharacters(in: .whitespaces).isEmpty
        let atStageStart = stageWords.isEmpty

        var pool: [String] = []
        var space = true
        if atStageStart {
            pool = Verbs.names.filter { $0 != "?" }
            if atLineStart { pool += catalog.names + ["history", ":help", ":save", ":record", ":clear", ":quit"] }
        } else {
            let verb = stageWords[0].lowercased()
            let spec = Verbs.spec(for: verb)
            let argIndex = stageWords.count  // the word being typed is argument number argIndex
            // `chart bar to FILE`: after to, a file name.
            if let last = stageWords.last?.lowercased(), last == "to" || last == "to!", spec?.keywords.contains("to") == true {
                return Completion(start: start, candidates: files(matching: word), appendSpace: false)
            }
            switch spec?.completes {
            case .keyword(let words)? where argIndex == 1:
                pool = words
            case .file? where argIndex == 1 || (verb == "save" && argIndex == 1):
                return Completion(start: start, candidates: files(matching: word), appendSpace: false)
            case .table? where argIndex == 1 || (spec?.name == "join" && stageWords.count <= 2):
                pool = catalog.names
            case .setting?:
                if argIndex == 1 { pool = Session.settingNames }
                else {
                    switch stageWords[1].lowercased() {
                    case "output": pool = OutputFormat.allCases.map(\.rawValue)
                    case "timezone", "tz": pool = TimeZoneNames.all + ["UTC"]
                    case "time": pool = currentColumns(before: before).filter { _ in true }
                    case "charset": pool = ["unicode", "ascii"]
                    case "timer", "color", "csv-safe": pool = ["on", "off"]
                    default: pool = []
                    }
                }
            case .none? where verb == "help" || verb == "?":
                pool = Verbs.names + Functions.all.map(\.name) + HelpTopics.buckets.map(\.name) + ["functions", "buckets", "settings", "syntax"]
            default:
                pool = currentColumns(before: before) + (spec?.keywords ?? []) + TimeBucket.names + Functions.all.map(\.name)
                if word.hasPrefix("$") { pool = results.keys.sorted().map { "$\($0)" } }
            }
            if spec?.name == "load" && argIndex > 1 { pool = ["as", "at"] }
        }
        let lower = word.lowercased()
        var matches = Array(Set(pool.filter { $0.lowercased().hasPrefix(lower) })).sorted { TextOrder.less($0, $1) }
        // Columns whose names need quoting are offered in backticks.
        matches = matches.map { m in
            m.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "." || $0 == "$" || $0 == ":" || $0 == "/" || $0 == "+" || $0 == "-" }) ? m : "`\(m)`"
        }
        if matches.count == 1 && matches[0].hasSuffix("/") { space = false }
        return Completion(start: start, candidates: matches, appendSpace: space)
    }

    /// Columns available at the end of `before`: the pipeline so far is bound, so after
    /// `count by legend |` the columns are legend and count.
    func currentColumns(before: String) -> [String] {
        var text = before
        // Drop the unfinished stage.
        if let bar = text.lastIndex(of: "|") { text = String(text[..<bar]) } else { text = "" }
        if !text.trimmingCharacters(in: .whitespaces).isEmpty {
            let source = SourceText(name: "<completion>", text: text)
            if let command = Script.commands(in: source).last, command.lexError == nil {
                var parser = Parser(source: source, tokens: command.tokens)
                if let statement = try? parser.parseStatement(), case .pipeline(let p) = statement {
                    let binder = Binder(context: bindContext)
                    if var plan = try? binder.source(p.source) {
                        var ok = true
                        for stage in p.stages {
                            guard let next = try? binder.bind(stage, input: plan) else { ok = false; break }
                            plan = next
                        }
                        if ok { return plan.schema.names }
                    }
                }
            }
        }
        // A line starting with a table name completes that table's columns.
        let first = before.split(whereSeparator: { $0 == " " || $0 == "|" }).first.map(String.init)
        if let first, let name = catalog.resolve(first), let t = catalog[name] { return t.columnNames }
        if let name = currentTable, let t = catalog[name] { return t.columnNames }
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
        else if !dir.hasPrefix("/") && !dirPart.isEmpty { dir = (workingDirectory as NSString).appendingPathComponent(dirPart) }
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
