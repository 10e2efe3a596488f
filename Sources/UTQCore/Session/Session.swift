import Foundation

/// A session: text goes in, outputs come out. The REPL, batch scripts, notebooks and tests
/// all drive this same type. Its parts each have one job: the workspace holds tables and
/// results, the interpreter runs statements, placement decides where each step of a plan
/// runs (in memory, or in an attached database), the file output writes files, and the
/// completer completes text.
public final class Session: @unchecked Sendable {
    public let workspace = Workspace()
    public var settings = Settings()
    /// Zone for times written without an offset.
    public var defaultZone: ZoneRules
    public var files: FileOutput
    /// Makes `attach`'s databases (the command line installs PostgreSQL's); nil: attach says
    /// this build has none.
    public var databaseConnector: (any DatabaseConnector)?
    /// The attached databases by name.
    public internal(set) var databases: [String: any AttachedDatabase] = [:]
    /// Set from outside (Ctrl-C) to stop the running command.
    public let cancel: CancellationFlag
    /// How far the running load has got; the shell may draw it.
    public let progress = LoadProgress()
    /// Told true as a load starts reading and false when it is done, so a shell can tune
    /// its allocator for each kind of work.
    public var loadPhase: (@Sendable (_ loading: Bool) -> Void)?
    /// The terminal's size now, when there is one: the program that knows the terminal sets
    /// it, and each command reads it again, so a resized window draws the next chart to fit.
    public var terminalSize: (@Sendable () -> (width: Int, height: Int))?

    /// Takes the terminal's size into the settings that follow it, within the sizes `set`
    /// takes (a terminal may say it is wider than any chart can be drawn).
    public func followTerminal(settings: inout Settings) {
        guard let size = terminalSize?() else { return }
        func within(_ n: Int, _ r: ClosedRange<Int>) -> Int { min(max(n, r.lowerBound), r.upperBound) }
        if settings.widthFollowsTerminal { settings.render.width = within(size.width, Settings.widthRange) }
        if settings.heightFollowsTerminal { settings.render.height = within(size.height, Settings.heightRange) }
    }
    /// Parquet files larger than this many bytes are loaded with their columns read when a
    /// question first needs them (UTQ_PARQUET_DEFER_BYTES, else 64 MB); tests set it on a
    /// session of their own to try small files so.
    var deferParquetAbove: Int? = ParquetReader.deferBytes
    /// Commands that succeeded, for `:save` and `history`.
    public private(set) var history: [String] = []
    /// The notebook being made (`utq notebook`): each command, heading and paragraph goes in.
    public var notebook: Notebook?
    /// The file `:record` writes to.
    var recording: NotebookRecording?
    /// The lesson a notebook's `check` cells are graded against (`:lesson FILE`).
    public internal(set) var lessonChecks: LessonChecks?
    /// Where the records of `check` cells go; nil for the user's lesson folder.
    public var lessonRecordFolder: String?
    /// Warnings that belong to the command running now but arose outside it.
    var pendingWarnings: [String] = []
    /// Whether a script's `load` of a delimited file reads first only the columns the rest
    /// of the script names (the others when a question needs them). Batch runs turn it on;
    /// at the prompt any question may come next, so every column is read at once.
    public var readsNamedColumnsFirst = false
    /// The commands of the running script after the one running now.
    var ahead: ArraySlice<ScriptBlock> = []
    /// The scripts that run after the running one in the same batch (each `-c` command and
    /// script file is a script of its own): their names count as the running script's, so
    /// `utq -c "load f.csv" -c "count by legend"` reads the legend with the load, not by
    /// reading the file again at the question.
    public var scriptsAfter: [String] = []

    public init(workingDirectory: String = FileManager.default.currentDirectoryPath, defaultZone: ZoneRules = .local,
                cancel: CancellationFlag = CancellationFlag()) {
        self.files = FileOutput(workingDirectory: workingDirectory)
        self.defaultZone = defaultZone
        self.cancel = cancel
    }

    public var workingDirectory: String {
        get { files.workingDirectory }
        set { files.workingDirectory = newValue }
    }

    public var catalog: Catalog { workspace.catalog }
    public var currentTable: String? { workspace.currentTable }
    public var results: [Int: Table] { workspace.results }
    public var lastResult: Int? { workspace.lastResult }

    // MARK: running text

    /// Runs every command of a script, calling `emit` as each finishes. Stops at the first
    /// error unless `keepGoing`. Returns the errors met.
    @discardableResult
    public func run(_ text: String, name: String = "<input>", keepGoing: Bool = false,
                    emit: (ScriptCommand, CommandOutcome) -> Void = { _, _ in }) -> [Diagnostic] {
        // A byte-order mark (as some editors save UTF-8) is no part of the first command.
        let source = SourceText(name: name, text: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        var errors: [Diagnostic] = []
        let blocks = LiterateScript.blocks(in: source)
        defer { ahead = [] }
        for (k, block) in blocks.enumerated() {
            ahead = blocks[(k + 1)...]
            // Headings and prose only matter to a notebook or a recording.
            // An exercise's answer runs as the commands around it do.
            let command: ScriptCommand
            switch block {
            case .command(let c), .answer(let c): command = c
            case .wrong: continue
            default: remark(block); continue
            }
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

    /// The names the rest of the running script uses, lowercased (every word and text of its
    /// commands, so never fewer than the columns it names); nil when loads read every column:
    /// also when the script writes or describes a table, which reads every column of it (a
    /// script that turns a CSV file into Parquet would read the file twice).
    func namesAhead() -> Set<String>? {
        guard readsNamedColumnsFirst else { return nil }
        let wholeTable = Set([SaveVerb.spec, DescribeVerb.spec].flatMap { [$0.name] + $0.aliases })
        var names = Set<String>()
        let later = scriptsAfter.flatMap { LiterateScript.blocks(in: SourceText(name: "<later>", text: $0)) }
        for block in ahead + later {
            let commands: [ScriptCommand]
            switch block {
            case .command(let c), .answer(let c): commands = [c]
            case .wrong(let cs): commands = cs
            default: continue
            }
            for token in commands.flatMap(\.tokens) {
                switch token.kind {
                case .identifier(let s, quoted: false) where wholeTable.contains(s.lowercased()): return nil
                case .identifier(let s, _), .string(let s), .tooLong(let s): names.insert(s.lowercased())
                default: break
                }
            }
        }
        return names
    }

    /// Parses a command into its statement, without running anything.
    public static func parse(_ command: ScriptCommand) throws -> Statement {
        if let e = command.lexError { throw e }
        var parser = Parser(source: command.source, tokens: command.tokens)
        return try parser.parseStatement()
    }

    /// Runs one command.
    public func execute(_ command: ScriptCommand) -> CommandOutcome {
        cancel.reset()
        followTerminal(settings: &settings)
        var outcome = CommandOutcome()
        let checks = lessonChecks
        do {
            let statement = try Session.parse(command)
            let started = DispatchTime.now()
            do {
                try perform(statement, command, into: &outcome)
            } catch let changed as DatabaseChanged {
                // Read the database's tables again, say what changed, and run the command once
                // more on them (an error then is the command's own).
                let note = try rereadTables(of: changed)
                outcome = CommandOutcome()
                outcome.outputs.append(.info(note))
                do {
                    try perform(statement, command, into: &outcome)
                } catch let again as DatabaseChanged {
                    throw Diagnostic("the database refused the query: \(again.reason)", hint: "explain shows the SQL utq sends")
                }
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            for i in outcome.outputs.indices {
                if case .table(var r) = outcome.outputs[i] { r.elapsed = elapsed; outcome.outputs[i] = .table(r) }
            }
            // The time of a command, not of the setting that asks for it.
            var isSetting = false
            if case .command(let stage) = statement, stage.verb == SetVerb.spec.name { isSetting = true }
            if settings.timer && !isSetting {
                let parts = outcome.timings.map { "\($0.label) \(Session.formatSeconds($0.seconds))" }
                outcome.outputs.append(.info("time: " + Session.formatSeconds(elapsed) + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")))
            }
            // A password stays out of the history and of scripts saved from it.
            if let kept = HistoryText.of(command, statement) { history.append(SecretText.masked(kept)) }
            // A check replays what the session ran since the lesson opened.
            if let checks, checks === lessonChecks { checks.transcript.append(command) }
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
        // A message may quote the command's secrets in a form of libpq's own.
        let secrets = SecretText.values(in: command.text)
        if !secrets.isEmpty {
            outcome.error = outcome.error?.withoutSecrets(secrets)
            outcome.outputs = outcome.outputs.map { $0.withoutSecrets(secrets) }
        }
        if !outcome.keepOutOfNotebook {
            note(.cell(NotebookCell(command: command.text, outputs: outcome.outputs, error: outcome.error, settings: settings)))
        }
        outcome.outputs += pendingWarnings.map { .warning($0) }
        pendingWarnings = []
        return outcome
    }

    /// Runs a statement; when it read columns of a table whose types were guessed and they
    /// are not what was guessed, puts the table back as it is and runs it again, bound anew
    /// (each column is read once, so this ends).
    private func perform(_ statement: Statement, _ command: ScriptCommand, into outcome: inout CommandOutcome) throws {
        var said: [String] = []
        for attempt in 0... {
            do {
                try Interpreter(session: self, source: command.source).perform(statement, into: &outcome)
                break
            } catch let revised as SchemaRevised where attempt < 8 {
                workspace.put([.deferred(revised.table)], makeCurrent: false)
                said += revised.warnings
                outcome = CommandOutcome()
            }
        }
        outcome.outputs += said.map { .warning($0) }
    }

    /// Tab completion for a line typed so far.
    public func complete(_ line: String, cursor: Int? = nil) -> Completion {
        Completer(session: self).complete(line, cursor: cursor)
    }

    func appendHistory(_ line: String) { history.append(line) }

    static func formatSeconds(_ s: Double) -> String {
        s < 1 ? NumberText.fixed(s * 1000, decimals: s < 0.01 ? 2 : 1) + " ms" : NumberText.fixed(s, decimals: 2) + " s"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension Session {
    /// Where each step of a plan runs: in the database its tables live in where it can, else
    /// in memory.
    public func place(_ plan: LogicalPlan) throws -> PlacedPlan {
        try Placement(catalog: catalog, databases: databases).place(plan)
    }
}
