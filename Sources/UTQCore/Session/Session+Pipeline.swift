import Foundation

extension Session {
    /// Runs a pipeline: commands (load, set, …) act on the session; query stages build a
    /// plan that runs when a stage needs its rows (save, describe) or at the end.
    func runPipeline(_ p: Pipeline, source: SourceText, into outcome: inout CommandOutcome) throws {
        var plan: LogicalPlan? = nil
        var sourceUsed = false
        let binder = Binder(context: bindContext)
        func input() throws -> LogicalPlan {
            if let plan { return plan }
            sourceUsed = true
            return try binder.source(p.source)
        }
        var consumed = false
        var current: Stage? = nil
        do {
            for (k, stage) in p.stages.enumerated() {
                let alone = p.stages.count == 1 && { if case .current = p.source { return true } else { return false } }()
                current = stage
                switch stage.args {
                case .load(let path, let alias, let at):
                    try requireAlone(stage, alone)
                    try load(path: path, alias: alias, at: at, source: source, span: stage.span, into: &outcome)
                    consumed = true
                case .use(let name):
                    try requireAlone(stage, alone)
                    guard let resolved = catalog.resolve(name) else {
                        _ = try binder.table(name, stage.span)  // throws the "unknown table" message
                        return
                    }
                    use(resolved)
                    outcome.outputs.append(.info(Loaders.summary(catalog[resolved]!)))
                    consumed = true
                case .set(let name, let value, let span):
                    try requireAlone(stage, alone)
                    try set(name, value, span, into: &outcome)
                    consumed = true
                case .help(let topic):
                    try requireAlone(stage, alone)
                    outcome.outputs.append(.text(try Help.text(for: topic, span: stage.span)))
                    consumed = true
                case .tables:
                    guard k == 0 else { throw Diagnostic("tables starts a pipeline; it cannot follow |", at: stage.span) }
                    plan = .values(tablesTable(), label: "tables")
                case .describe(let name):
                    let target: Table
                    if let name {
                        guard k == 0 else { throw Diagnostic("describe TABLE starts a pipeline", at: stage.span) }
                        guard case .scan(let t, _) = try binder.table(name, stage.span), let table = catalog[t] else { return }
                        target = table
                    } else {
                        target = try Executor(catalog: catalog, cancel: cancel).run(try input())
                    }
                    plan = .values(Describe.table(for: target), label: "describe")
                case .save(let path, let force):
                    let table = try Executor(catalog: catalog, cancel: cancel).run(try input())
                    try save(table, to: path, force: force, span: stage.span, into: &outcome)
                    consumed = true
                    guard k == p.stages.count - 1 else { throw Diagnostic("save ends a pipeline", at: p.stages[k + 1].span) }
                case .chart(let request):
                    guard k == p.stages.count - 1 else { throw Diagnostic("chart ends a pipeline", at: p.stages[k + 1].span) }
                    try chart(request, input: try input(), into: &outcome)
                    consumed = true
                default:
                    plan = try binder.bind(stage, input: try input())
                }
            }
        } catch var d as Diagnostic {
            // A beginner's error is easier to put right next to how the verb is written.
            if d.usage == nil, let stage = current, Session.usageHelps(stage, d), let spec = Verbs.spec(for: stage.verb) {
                d.usage = spec.usage
            }
            throw d
        }
        if consumed { return }
        if p.stages.isEmpty { plan = try input() }
        _ = sourceUsed
        guard let plan else { return }
        let table = try Executor(catalog: catalog, cancel: cancel).run(plan)
        let n = keep(table)
        summaryKeys["$\(n)"] = groupKeys(of: plan)
        outcome.outputs.append(.table(TableResult(number: n, table: table, elapsed: 0)))
    }

    /// Whether an error is about how a stage was written (so its usage helps), not about a
    /// file that is missing or a table named before the stage.
    static func usageHelps(_ stage: Stage, _ d: Diagnostic) -> Bool {
        switch stage.args {
        case .load, .help: return false
        default: break
        }
        guard let span = d.span else { return true }
        return span.start >= stage.span.start && span.start <= stage.span.end
    }

    func requireAlone(_ stage: Stage, _ alone: Bool) throws {
        if !alone {
            throw Diagnostic("\(stage.verb) is a command of its own; it cannot be part of a pipeline", at: stage.span,
                             hint: "put it on a line by itself")
        }
    }

    // MARK: load

    func load(path: String, alias: String?, at: String?, source: SourceText, span: SourceSpan, into outcome: inout CommandOutcome) throws {
        let full = resolve(path, relativeTo: source)
        let request = LoadRequest(path: full, name: alias ?? Loaders.tableName(for: path), at: at, zone: defaultZone, cancel: cancel,
                                  progress: progress, memoryLimit: settings.memoryLimit)
        let size = (try? FileManager.default.attributesOfItem(atPath: full)[.size] as? Int) ?? 0
        progress.begin(path, bytes: size)
        defer { progress.end() }
        let result: LoadResult
        do {
            result = try Loaders.load(request)
        } catch var e as LoadError {
            e.path = Self.asWritten(e.path, full: full, written: path)
            var message = "cannot load \(e.description)"
            if e.message == "no such file", let near = Session.nearestFile(to: full) {
                let folder = (path as NSString).deletingLastPathComponent
                message += " — did you mean \(folder.isEmpty ? near : (folder as NSString).appendingPathComponent(near))?"
            }
            throw Diagnostic(message, at: span)
        }
        // Only now, with everything read, do the tables change.
        put(result.tables, makeCurrent: true)
        if let current = result.current, catalog[current] != nil { use(current) }
        for w in result.warnings {
            var w = w
            w.path = Self.asWritten(w.path, full: full, written: path)
            outcome.outputs.append(.warning(w.description))
        }
        outcome.outputs.append(.info(result.summary))
    }

    /// A path in a message as the user wrote it: the loaded path itself, or a file inside
    /// it (a GTFS feed's `stops.txt`), shown under the name the user gave.
    static func asWritten(_ reported: String, full: String, written: String) -> String {
        if reported == full { return written }
        let folder = full.hasSuffix("/") ? full : full + "/"
        guard reported.hasPrefix(folder) else { return reported }
        let base = written.hasSuffix("/") ? String(written.dropLast()) : written
        return base + "/" + reported.dropFirst(folder.count)
    }

    /// A file beside a missing one with a name close to it (market.jsn → market.json).
    static func nearestFile(to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return nil }
        return Suggest.closest(name, among: names.filter { !$0.hasPrefix(".") })
    }

    // MARK: save

    func save(_ table: Table, to path: String, force: Bool, span: SourceSpan, into outcome: inout CommandOutcome) throws {
        guard let format = OutputFormat.forFile(path) else {
            throw Diagnostic("cannot tell the format of \(path) from its name", at: span, hint: "end it with .csv, .tsv, .json, .ndjson, .md or .txt")
        }
        let full = resolve(path, relativeTo: nil)
        let bytes = TableWriter.bytes(table, format: format, csvSafe: settings.csvSafe)
        do {
            try AtomicFile.write(bytes, to: full, replace: force || settings.replaceFiles)
        } catch let e as AtomicFile.Failure {
            throw Diagnostic(e.message(path), at: span, hint: e.exists ? "write save! \(path) to replace it (or run utq with --force)" : nil)
        }
        outcome.outputs.append(.info("saved \(NumberText.grouped(table.rowCount)) rows to \(path)"))
    }

    // MARK: tables

    func tablesTable() -> Table {
        let names = catalog.names
        var rows: [Int64] = [], cols: [Int64] = [], spans: [String] = [], zones: [String] = []
        for n in names {
            let t = catalog[n]!
            rows.append(Int64(t.rowCount))
            cols.append(Int64(t.columns.count))
            if let (lo, hi) = t.timeRange() {
                let unit = t.timeSpanUnit
                spans.append(TimeText.display(lo, zone: t.zone, unit: unit) + " → " + TimeText.display(hi, zone: t.zone, unit: unit))
            } else { spans.append("") }
            zones.append(t.zone.identifier)
        }
        func strings(_ a: [String]) -> Column.Storage {
            var interner = ByteInterner()
            let codes = a.map { interner.intern($0) }
            return .string(StringStorage(codes: codes, dictionary: interner.strings()))
        }
        let current = names.map { $0 == currentTable ? "*" : "" }
        return Table(name: "tables", columns: [
            Column(name: "table", storage: strings(names)),
            Column(name: "rows", storage: .int(rows)),
            Column(name: "columns", storage: .int(cols)),
            Column(name: "time span", storage: strings(spans), validity: BehaviourMapper.bitmap(spans.map { !$0.isEmpty })),
            Column(name: "zone", storage: strings(zones)),
            Column(name: "current", storage: strings(current), validity: BehaviourMapper.bitmap(current.map { !$0.isEmpty })),
        ], zone: .utc)
    }
}
