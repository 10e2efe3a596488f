import Foundation

/// Reads one file of a feed into a table: each column typed as GTFS defines it, column
/// names set right when a feed wrote them with stray characters or capitals, and the
/// header checked against what GTFS requires.
enum GTFSFileReader {
    static func read(_ name: String, from source: GTFSFeedSource, feedName: String, zone: ZoneRules,
                     report: inout GTFSReport, cancel: CancellationFlag?, progress: LoadProgress? = nil) throws -> GTFSFileTable {
        let schema = GTFSSchema.file(named: name)
        var options = CSVOptions(delimiter: UInt8(ascii: ","))
        options.recordLines = true
        options.ignoresEmptyExtraCells = false
        options.keepsHeaderSpaces = true
        options.progress = progress
        options.typeOverride = { raw in GTFSSchema.kind(of: canonicalName(raw, in: schema).name)?.cellType }
        let tableName = feedName + "." + String(name.dropLast(4))
        let loaded = try source.read(name, table: tableName, zone: zone, options: options, cancel: cancel)

        var file = GTFSFileTable(name: name, path: source.displayPath(name), table: loaded.table,
                                 rowLines: loaded.rowLines, readWarnings: loaded.warnings)
        file.table.zone = zone
        file.table.rowNoun = schema?.rowNoun ?? "rows"
        // A service runs from start_date to end_date; the table's span is the whole of it.
        let ends = ["calendar.txt": "end_date", "feed_info.txt": "feed_end_date"]
        if let end = ends[name] { file.table.timeEndColumn = end }
        report.read(file)
        fixColumnNames(&file, schema: schema, report: &report)
        if let schema, schema.columnsChecked { checkHeader(file, schema: schema, report: &report) }
        return file
    }

    /// The GTFS name a header cell stands for, and why it differs from what was written.
    /// Spaces and control characters around it are dropped (a form feed after `shape_id`
    /// is a real case); a known name written in capitals is read in lower case.
    static func canonicalName(_ written: String, in schema: GTFSSchema.File?) -> (name: String, note: String?) {
        let trimmed = written.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines
                                                     .union(.controlCharacters).union(CharacterSet(charactersIn: "\u{FEFF}")))
        var note: String? = nil
        if trimmed != written, !trimmed.isEmpty {
            let stray = written.unicodeScalars.filter { !trimmed.unicodeScalars.contains($0) }
            note = stray.allSatisfy({ $0 == " " }) ? "has spaces around it"
                : "has stray characters (\(Set(stray.map { String(format: "U+%04X", $0.value) }).sorted().joined(separator: ", ")))"
        }
        let known = schema?.knownColumns ?? []
        if !known.contains(trimmed), known.contains(trimmed.lowercased()) {
            return (trimmed.lowercased(), note ?? "is written in capitals; GTFS names are lower case")
        }
        return (trimmed, note)
    }

    private static func fixColumnNames(_ file: inout GTFSFileTable, schema: GTFSSchema.File?, report: inout GTFSReport) {
        for i in file.table.columns.indices {
            let written = file.table.columns[i].name
            let (name, note) = canonicalName(written, in: schema)
            guard name != written, let note, !file.table.columnNames.contains(name) else { continue }
            report.add(file, "column name", code: .leadingOrTrailingWhitespaces, header: true,
                       "column name \"\(TextWidth.printable(written))\" \(note); read as \(name)")
            file.table.columns[i].name = name
        }
    }

    private static func checkHeader(_ file: GTFSFileTable, schema: GTFSSchema.File, report: inout GTFSReport) {
        let names = file.table.columnNames
        for column in schema.required where !names.contains(column) {
            report.add(file, "missing column", code: .missingRequiredColumn, header: true,
                       "there is no \(column) column, which GTFS requires in \(schema.name)")
        }
        for (column, when) in schema.conditional where !names.contains(column) {
            report.add(file, "missing column", code: .missingRequiredColumn, header: true, "there is no \(column) column; GTFS requires it \(when)")
        }
        let known = schema.knownColumns
        for name in names where !known.contains(name) {
            report.add(file, "unknown column", code: .unknownColumn, header: true,
                       "unknown column \"\(TextWidth.printable(name))\", not part of \(schema.name) in GTFS; kept as it is"
                       + Suggest.didYouMean(name, among: known))
        }
    }
}
