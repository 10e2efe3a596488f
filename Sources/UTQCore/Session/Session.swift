import Foundation

/// A session: loaded tables, numbered results and settings. Text goes in, outputs come out;
/// the REPL, batch scripts, notebooks and tests all drive this same type.
public final class Session: @unchecked Sendable {
    public private(set) var catalog = Catalog()
    public private(set) var currentTable: String?
    public private(set) var results: [Int: Table] = [:]
    public private(set) var lastResult: Int?
    private var nextResult = 1
    public var settings = Settings()
    /// Zone for times written without an offset.
    public var defaultZone: ZoneRules
    public var workingDirectory: String
    /// Set from outside (Ctrl-C) to stop the running command.
    public let cancel: CancellationFlag
    /// How far the running load has got; the shell may draw it.
    public let progress = LoadProgress()
    /// Commands that succeeded, for `:save` and `history`.
    public private(set) var history: [String] = []
    /// The group keys of results and named tables that came from a summary (`$3`, `busy`),
    /// so a chart of them later still knows which columns name the bars.
    var summaryKeys: [String: [String]] = [:]
    /// Called by meta commands the client handles, with the argument.
    public var metaHandler: (@Sendable (String, String?) -> Output?)?
    /// The notebook being made (`utq notebook`): each command, heading and paragraph goes in.
    public var notebook: Notebook?
    /// The file `:record` writes to.
    var recording: NotebookRecording?
    /// Warnings that belong to the command running now but arose outside it.
    var pendingWarnings: [String] = []

    public init(workingDirectory: String = FileManager.default.currentDirectoryPath, defaultZone: ZoneRules = .local,
                cancel: CancellationFlag = CancellationFlag()) {
        self.workingDirectory = workingDirectory
        self.defaultZone = defaultZone
        self.cancel = cancel
    }

    // MARK: running text

    /// Runs every command of a script, calling `emit` as each finishes. Stops at the first
    /// error unless `keepGoing`. Returns the errors met.
    @discardableResult
    public func run(_ text: String, name: String = "<input>", keepGoing: Bool = false,
                    emit: (ScriptCommand, CommandOutcome) -> Void = { _, _ in }) -> [Diagnostic] {
        let source = SourceText(name: name, text: text)
        var errors: [Diagnostic] = []
        for block in LiterateScript.blocks(in: source) {
            // Headings and prose only matter to a notebook or a recording.
            guard case .command(let command) = block else { remark(block); continue }
            let outcome = execute(command)
            emit(command, outcome)
            if let e = outcome.error {
                errors.append(e)
                // Ctrl-C stops the whole line or script, also when errors do not.
                if !keepGoing || outcome.cancelled { break }
            }
            if outcome.quit { break }
        }
        return errors
    }

    /// Runs one command.
    public func execute(_ command: ScriptCommand) -> CommandOutcome {
        cancel.reset()
        var outcome = CommandOutcome()
        do {
            if let e = command.lexError { throw e }
            var parser = Parser(source: command.source, tokens: command.tokens)
            let statement = try parser.parseStatement()
            let started = DispatchTime.now()
            try perform(statement, source: command.source, into: &outcome)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            for i in outcome.outputs.indices {
                if case .table(var r) = outcome.outputs[i] { r.elapsed = elapsed; outcome.outputs[i] = .table(r) }
            }
            // The time of a command, not of the setting that asks for it.
            var isSetting = false
            if case .pipeline(let p) = statement, p.stages.count == 1, case .set = p.stages[0].args { isSetting = true }
            if settings.timer && !isSetting { outcome.outputs.append(.info("time: " + Session.formatSeconds(elapsed))) }
            if case .meta = statement {} else { history.append(command.text) }
        } catch var d as Diagnostic {
            d.source = d.source ?? command.source
            if d.span == nil { d.span = command.span }
            outcome.error = d
        } catch is CancellationError {
            outcome.error = Diagnostic("cancelled; the tables are as they were", at: command.span)
            outcome.error?.source = command.source
            outcome.cancelled = true
        } catch let e as LoadError {
            var d = Diagnostic("cannot load \(e.description)", at: command.span)
            d.source = command.source
            outcome.error = d
        } catch {
            var d = Diagnostic("\(error)", at: command.span)
            d.source = command.source
            outcome.error = d
        }
        if !outcome.keepOutOfNotebook {
            note(.cell(NotebookCell(command: command.text, outputs: outcome.outputs, error: outcome.error, settings: settings)))
        }
        outcome.outputs += pendingWarnings.map { .warning($0) }
        pendingWarnings = []
        return outcome
    }

    static func formatSeconds(_ s: Double) -> String {
        s < 1 ? NumberText.fixed(s * 1000, decimals: s < 0.01 ? 2 : 1) + " ms" : NumberText.fixed(s, decimals: 2) + " s"
    }

    // MARK: statements

    func perform(_ statement: Statement, source: SourceText, into outcome: inout CommandOutcome) throws {
        switch statement {
        case .pipeline(let p):
            try runPipeline(p, source: source, into: &outcome)
        case .assign(let name, let p, let span):
            // `let d = weekday | sort d` names a column, not a table called weekday: when the
            // word after = is no table, the line adds a column and goes on.
            if case .table(let word, let wordSpan) = p.source, catalog.resolve(word) == nil {
                let derive = Stage(verb: "let", span: span, args: .derive([(name, .column(word, wordSpan))]))
                let rewritten = Pipeline(source: .current, stages: [derive] + p.stages, span: p.span)
                try runPipeline(rewritten, source: source, into: &outcome)
                return
            }
            var inner = CommandOutcome()
            try runPipeline(p, source: source, into: &inner)
            guard let last = inner.outputs.last(where: { if case .table = $0 { return true } else { return false } }),
                  case .table(let result) = last else {
                throw Diagnostic("let \(name) = … needs a pipeline that gives a table", at: span)
            }
            var t = result.table
            t.name = name
            catalog.put(t)
            summaryKeys[name] = result.number.flatMap { summaryKeys["$\($0)"] }
            outcome.outputs.append(contentsOf: inner.outputs.filter { if case .table = $0 { return false } else { return true } })
            outcome.outputs.append(.table(result))
            outcome.outputs.append(.info("\(name): kept as a table (\(NumberText.grouped(t.rowCount)) rows)"))
        case .meta(let command, let argument, let span):
            try meta(command, argument, span, into: &outcome)
        }
    }

    func meta(_ command: String, _ argument: String?, _ span: SourceSpan, into outcome: inout CommandOutcome) throws {
        switch command {
        case "quit", "exit":
            outcome.quit = true
        case "history":
            let lines = history.enumerated().map { "\(String($0.offset + 1).leftPadded(4))  \($0.element)" }
            outcome.outputs.append(.text(lines.isEmpty ? "(no commands yet)\n" : lines.joined(separator: "\n") + "\n"))
        case "save", "save!":
            guard let argument, !argument.isEmpty else {
                throw Diagnostic(":save needs a file name, as in :save lesson.utq", at: span)
            }
            let path = resolve(argument, relativeTo: nil)
            let text = "# utq session\n" + history.joined(separator: "\n") + "\n"
            do {
                try AtomicFile.write(Array(text.utf8), to: path, replace: command == "save!" || settings.replaceFiles)
            } catch let e as AtomicFile.Failure {
                throw Diagnostic(e.message(argument), at: span, hint: e.exists ? "write :save! \(argument) to replace it" : nil)
            }
            outcome.outputs.append(.info("saved \(history.count) commands to \(argument)"))
        case "clear":
            results = [:]; lastResult = nil; nextResult = 1
            summaryKeys = summaryKeys.filter { !$0.key.hasPrefix("$") }
            // Numbering starts again from [1]: a saved script must clear too, or its $n
            // would name other results when it runs again.
            history.append(":clear")
            outcome.outputs.append(.info("results cleared"))
        case "record", "record!":
            try record(argument, replace: command == "record!", span: span, into: &outcome)
        default:
            if let handler = metaHandler, let out = handler(command, argument) {
                outcome.outputs.append(out)
            } else {
                throw Diagnostic(":\(command) is not available here", at: span)
            }
        }
    }

    /// Keeps a table as a numbered result.
    func keep(_ t: Table) -> Int {
        let n = nextResult
        nextResult += 1
        results[n] = t
        lastResult = n
        return n
    }

    var bindContext: BindContext {
        BindContext(catalog: catalog, results: results, lastResult: lastResult, currentTable: currentTable)
    }

    // MARK: catalog changes used by commands

    func put(_ tables: [Table], makeCurrent: Bool) {
        for t in tables { catalog.put(t); summaryKeys[t.name] = nil }
        if makeCurrent, let first = tables.first { currentTable = first.name }
    }

    func use(_ name: String) { currentTable = name }

    func replaceTable(_ t: Table) { catalog.put(t) }

    /// A path as the user wrote it, made absolute: relative to the working directory, or to
    /// the script's folder when the file is only found there.
    func resolve(_ path: String, relativeTo source: SourceText?) -> String {
        var p = path
        if p.hasPrefix("~/") { p = NSHomeDirectory() + String(p.dropFirst(1)) }
        if p.hasPrefix("/") { return p }
        let fromCwd = (workingDirectory as NSString).appendingPathComponent(p)
        if FileManager.default.fileExists(atPath: fromCwd) { return fromCwd }
        if let source, source.name.contains("/") || source.name.hasSuffix(".utq") {
            let dir = ((source.name as NSString).deletingLastPathComponent as NSString)
            let base = dir.isAbsolutePath ? dir as String : (workingDirectory as NSString).appendingPathComponent(dir as String)
            let fromScript = (base as NSString).appendingPathComponent(p)
            if FileManager.default.fileExists(atPath: fromScript) { return fromScript }
        }
        return fromCwd
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
