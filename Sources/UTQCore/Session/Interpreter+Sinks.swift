extension Interpreter {
    /// `save FILE`: the rows written to a file, by its extension.
    func save(_ table: Table, _ request: SaveRequest, into outcome: inout CommandOutcome) throws {
        if request.toTable { return try saveToDatabase(table, request, into: &outcome) }
        if request.isParquet { return try saveParquet(table, request, into: &outcome) }
        let replace = request.replace || session.settings.replaceFiles
        let hint = "write save! \(request.path) to replace it (or run utq with --force)"
        let skipped: String?
        if let framing = RowsWriter.framing(request.format, csvSafe: session.settings.csvSafe), Compression.forFile(request.path) == nil {
            // Straight to the file a block of rows at a time, not first into one buffer of it all.
            let writer = RowsWriter(table, framing)
            skipped = try session.files.write(to: request.path, replace: replace, span: request.span, replaceHint: hint) { fd in
                try writer.write(cancel: session.cancel) { block in try block.withUnsafeBytes { try AtomicFile.writeAll(fd, $0) } }
            }
        } else {
            let bytes = TableWriter.bytes(table, format: request.format, csvSafe: session.settings.csvSafe)
            skipped = try session.files.write(bytes, to: request.path, replace: replace, span: request.span, replaceHint: hint)
        }
        if let skipped {
            outcome.outputs.append(.info(skipped))
            return
        }
        outcome.outputs.append(.info("saved \(NumberText.counted(table.rowCount, "row")) to \(request.path)"))
        // NaN and ∞ come from data or arithmetic (0/0 is null, but 1e308 * 10 is ∞).
        let lossy = request.format == .json || request.format == .ndjson
        for (column, count) in TableWriter.nonFinite(table) {
            let what = "\(column) holds \(NumberText.grouped(count)) value\(count == 1 ? "" : "s") that \(count == 1 ? "is" : "are") NaN or ∞"
            outcome.outputs.append(.warning(what + (lossy ? "; JSON has no such numbers, so \(count == 1 ? "it is" : "they are") written as null"
                                                        : "; written as NaN, Infinity or -Infinity, which utq reads back as numbers")))
        }
    }

    /// `save FILE.parquet`: written row group by row group, straight to the file.
    func saveParquet(_ table: Table, _ request: SaveRequest, into outcome: inout CommandOutcome) throws {
        var notes: [String] = []
        if let skipped = try session.files.write(to: request.path, replace: request.replace || session.settings.replaceFiles, span: request.span,
                                                 replaceHint: "write save! \(request.path) to replace it (or run utq with --force)", { fd in
            notes = try ParquetWriter.write(table, to: fd, cancel: session.cancel)
        }) {
            outcome.outputs.append(.info(skipped))
            return
        }
        outcome.outputs.append(.info("saved \(NumberText.counted(table.rowCount, "row")) to \(request.path)"))
        outcome.outputs += notes.map { .info($0) }
    }

    /// `chart KIND`: the rows drawn for the terminal (and kept as a result, so `$n | chart
    /// line` draws them again), or into a file.
    func chart(_ table: Table, _ request: ChartRequest, filters: [String] = [], into outcome: inout CommandOutcome) throws {
        let render = session.settings.render
        let chart = try ChartBuilder.build(request, table: table, keyColumns: table.groupKeys, filters: filters, render: render)
        guard let file = request.file else {
            let n = workspace.keep(table)
            outcome.outputs.append(.chart(ChartOutput(chart: chart, text: chart.text(render), number: n, rows: table.rowCount)))
            return
        }
        let bytes: [UInt8]
        if file.lowercased().hasSuffix(".svg") {
            bytes = Array(chart.svg().utf8)
        } else {
            // A file is read later, elsewhere: no terminal colours in it.
            var plain = render
            plain.color = false
            bytes = Array(chart.text(plain).utf8)
        }
        if let skipped = try session.files.write(bytes, to: file, replace: request.replace || session.settings.replaceFiles, span: request.fileSpan ?? request.span,
                                                 replaceHint: "write to! \(file) to replace it") {
            outcome.outputs.append(.info(skipped))
            return
        }
        outcome.outputs.append(.info("wrote chart \(request.kind.rawValue) to \(file)"))
    }
}

extension Interpreter {
    /// `save to DB.TABLE`: the rows into a new table of an attached database; `save append to`:
    /// added to an existing one.
    func saveToDatabase(_ table: Table, _ request: SaveRequest, into outcome: inout CommandOutcome) throws {
        let parts = request.path.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            throw Diagnostic("save \(request.append ? "append " : "")to needs DATABASE.TABLE, as in save \(request.append ? "append " : "")to db.rides_2020", at: request.span)
        }
        guard let database = session.databases[parts[0]] else {
            let attached = session.databases.keys.sorted()
            throw Diagnostic("no database called \(parts[0]) is attached", at: request.span,
                             hint: attached.isEmpty ? "attach one first: attach postgresql:///dbname as \(parts[0])" : "attached: \(attached.joined(separator: ", "))")
        }
        if request.append {
            // The table keeps its columns: the catalog stays as it is.
            let rows = try database.append(table, to: parts[1], cancel: session.cancel)
            outcome.outputs.append(.info("appended \(NumberText.counted(rows, "row")) to \(request.path)"))
            outcome.outputs += database.saveNotes.map { .info($0) }
            return
        }
        let rows = try database.save(table, as: parts[1], replace: request.replace || session.settings.replaceFiles, cancel: session.cancel)
        // The new table joins the catalog; the others keep the settings they have.
        let saved = "\(database.name).\(parts[1])"
        let fresh = try database.tables().filter { $0.name == saved || workspace.catalog[$0.name] == nil }
        workspace.put(fresh.map { CatalogEntry.remote($0) }, makeCurrent: false)
        outcome.outputs.append(.info("saved \(NumberText.counted(rows, "row")) to \(request.path)"))
        outcome.outputs += database.saveNotes.map { .info($0) }
    }
}
