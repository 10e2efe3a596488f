/// What the first and the last line of a delimited file are. A first line is names unless
/// its cells read as the types the rest of the file has (DuckDB's sniffer decides the same
/// way); a last line is data unless it is a totals row, which would turn the columns it
/// sums into text.
enum CSVShape {
    /// Whether a first line is data: in every column the rest of the file gives a type other
    /// than text, its cell reads as that type (or is empty), and at least one such cell does.
    static func firstLineIsData(_ cells: [String], types: [CellType], decimalComma: Bool) -> Bool {
        var typed = 0
        for (k, type) in types.enumerated() where k < cells.count {
            switch type {
            case .string, .undetermined: continue
            default: break
            }
            let cell = cells[k].trimmingCharacters(in: .whitespaces)
            if cell.isEmpty { continue }
            guard fits(cell, type, decimalComma: decimalComma) else { return false }
            typed += 1
        }
        return typed > 0
    }

    /// Whether a cell reads as a column's type.
    static func fits(_ cell: String, _ type: CellType, decimalComma: Bool) -> Bool {
        var vote = TypeVote(decimalComma: decimalComma)
        var s = cell
        s.withUTF8 { vote.add(UnsafeRawBufferPointer($0)) }
        switch (vote.result, type) {
        case (.undetermined, _): return true
        case (.int, .int), (.int, .double), (.double, .double), (.bool, .bool): return true
        case (.timestamp, .timestamp), (.duration, .duration): return true
        // A date written day-first may read both ways (03/04/2020).
        default:
            if case .timestamp(let order) = type { var t = cell; return t.withUTF8 { TimestampParser.parse(UnsafeRawBufferPointer($0), order: order) != nil } }
            return false
        }
    }

    /// Words a totals row starts with, in the languages the surveys come in.
    static let totalWords: Set<String> = ["total", "totals", "sum", "grand total", "sum total", "totaal", "summe", "gesamt", "totalt", "sum:", "total:", "totals:", "i alt", "average", "mean", "avg"]

    /// The last non-blank line of the file, when it may be a footer: where it starts in the
    /// text, and its cells. A line inside quotes cannot be told from the end, so a last line
    /// with a quote in it is not looked at.
    static func lastLine(_ source: FileSource, dataStart: Int, delimiter: UInt8) throws -> (offset: Int, cells: [String])? {
        // A compressed file is read once, in order: its end is known once it is read (see
        // `lastLine(ofText:endingAt:)`).
        guard !source.isStreamed else { return nil }
        let from = max(dataStart, source.size - tailBytes)
        var tail: [UInt8] = []
        var nuls = 0
        _ = try source.read(at: from, count: source.size - from, into: &tail, nuls: &nuls)
        guard nuls == 0 else { return nil }
        return lastLine(tail[...], from: from, dataStart: dataStart, delimiter: delimiter)
    }

    /// How much of the end of a file is looked at for its last line.
    static let tailBytes = 65536

    /// The last line of a text whose last bytes are `bytes` (the text ends at `size`): the same
    /// answer as for a plain file of that text, for a compressed file read to its end or held
    /// whole. Nil when `bytes` do not reach back as far as a plain file's tail does.
    static func lastLine(ofText bytes: ArraySlice<UInt8>, endingAt size: Int, dataStart: Int, delimiter: UInt8) -> (offset: Int, cells: [String])? {
        let from = max(dataStart, size - tailBytes)
        guard size - from <= bytes.count else { return nil }
        return lastLine(bytes.suffix(size - from), from: from, dataStart: dataStart, delimiter: delimiter)
    }

    /// The last line in `tail`, the text from offset `from` to its end.
    private static func lastLine(_ tail: ArraySlice<UInt8>, from: Int, dataStart: Int, delimiter: UInt8) -> (offset: Int, cells: [String])? {
        let tail = Array(tail)
        var end = tail.count
        while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(tail[end - 1]) { end -= 1 }
        guard end > 0 else { return nil }
        var start = end
        while start > 0, tail[start - 1] != 0x0A, tail[start - 1] != 0x0D { start -= 1 }
        // The line must start after the header, and be all the tail when the tail is all the data.
        guard start > 0 || from == dataStart, from + start > dataStart else { return nil }
        let line = Array(tail[start..<end])
        guard !line.contains(0x22) else { return nil }
        var scanner = CSVScanner(delimiter: delimiter)
        return line.withUnsafeBytes { b -> (Int, [String])? in
            guard let next = try? scanner.scanRecord(b, from: 0, isFinal: true), next == b.count, scanner.fieldCount >= 2 else { return nil }
            return (from + start, (0..<scanner.fieldCount).map { scanner.fieldString($0, in: b) })
        }
    }

    /// Why a last line is a totals row, or nil when it is data: it starts with Total, Totals,
    /// Sum (in its first two cells), or it breaks the types of half or more of the columns
    /// that have one (two at least). A number under numbers breaks nothing (12.5 under whole
    /// numbers, 007 under numbers are data that widens a column); text under numbers or
    /// times does.
    static func footerReason(_ cells: [String], types: [CellType], decimalComma: Bool) -> String? {
        for cell in cells.prefix(2) {
            let word = cell.trimmingCharacters(in: .whitespaces).lowercased()
            if totalWords.contains(word) { return "it starts with \(cell.trimmingCharacters(in: .whitespaces).quoted)" }
        }
        var typed = 0, broken = 0
        for (k, type) in types.enumerated() where k < cells.count {
            switch type {
            case .string, .undetermined: continue
            default: break
            }
            typed += 1
            let cell = cells[k].trimmingCharacters(in: .whitespaces)
            if cell.isEmpty || fits(cell, type, decimalComma: decimalComma) { continue }
            if type == .int || type == .double, NumberParser.readingWritten(cell) != nil { continue }
            broken += 1
        }
        return broken >= 2 && broken * 2 >= typed ? "\(broken) of its cells are not of their columns' types" : nil
    }
}

/// What a load decided about a file's first and last lines, kept across its passes (a pass
/// that widens a column reads the file again, and must drop the same lines).
struct ShapeDecision {
    var decided = false
    /// The first line was data, not names.
    var headerless = false
    var lastLine: (offset: Int, cells: [String])?
    /// The totals row left out: where it starts, why, and its cells.
    var footer: (offset: Int, reason: String, cells: [String])?
    var footerLine = 0
    /// The types the sample voted, which a last line is judged against.
    var voted: [CellType]?
    /// A compressed file's end has been looked at (its last line is known only once read).
    var tailSeen = false
    /// Columns that turned to text after the sample, with the type they had.
    var widened: [Int: CellType] = [:]

    /// Thrown to read the file again with its first line as data.
    struct FirstLineIsData: Error { var names: [String] }
    /// Thrown when a compressed file read to its end ends in a totals row: read again
    /// without it, and with the types voted afresh (the row may have widened some).
    struct FooterAtEnd: Error {}

    /// Names for a file without a header: those given (as many as the columns), else column_1 ….
    static func names(_ given: [String]?, width: Int, path: String) throws -> [String] {
        guard let given else { return (1...max(1, width)).map { "column_\($0)" } }
        guard given.count == width else {
            throw LoadError(path: path, line: 1, "columns=(…) gives \(NumberText.counted(given.count, "name")), but the file has \(NumberText.counted(width, "column"))")
        }
        return given
    }

    func notes(path: String) -> [LoadWarning] {
        var out: [LoadWarning] = []
        if headerless {
            out.append(LoadWarning(path: path, line: 1, "the first line is data, not column names (its cells are of the columns' types), so the columns are called column_1, column_2, …; say load … with header=true if it is a header, or name them with columns=(…)"))
        }
        if let footer {
            let shown = footer.cells.prefix(4).joined(separator: ",") + (footer.cells.count > 4 ? ",…" : "")
            out.append(LoadWarning(path: path, line: footerLine, "the last line (\(shown)) is left out as a totals row: \(footer.reason)"))
        }
        return out
    }

    /// For each column that turned to text after the sample: how many cells broke the type
    /// the rest had, and the first of them, so a user sees why and where.
    /// `positions`: where the table's columns are in the file, when some were not read.
    func textNotes(_ table: Table, rowLines: [Int32], path: String, positions: [Int]? = nil) -> [LoadWarning] {
        guard let positions else { return Self.textNotes(widened, table, rowLines: rowLines, path: path) }
        var read: [Int: CellType] = [:]
        for (k, p) in positions.enumerated() { if let was = widened[p] { read[k] = was } }
        return Self.textNotes(read, table, rowLines: rowLines, path: path)
    }

    /// The same for any reader: `widened` maps a column's position to the type it had before.
    /// Without the rows' lines (a JSON file), the first cell is named by its row.
    static func textNotes(_ widened: [Int: CellType], _ table: Table, rowLines: [Int32], path: String) -> [LoadWarning] {
        var out: [LoadWarning] = []
        for (k, was) in widened.sorted(by: { $0.key < $1.key }) where k < table.columns.count {
            let c = table.columns[k]
            guard case .string(let s) = c.storage else { continue }
            let breaks = s.dictionary.map { !$0.isEmpty && !CSVShape.fits($0, was, decimalComma: false) }
            var count = 0, first = -1
            for (row, code) in s.codes.enumerated() where c.isValid(row) && breaks[Int(code)] {
                count += 1
                if first < 0 { first = row }
            }
            guard first >= 0 else { continue }
            let line = first < rowLines.count ? Int(rowLines[first]) : nil
            let value = s.dictionary[Int(s.codes[first])]
            let noun = was.dataType == .timestamp ? "a time" : was.dataType == .duration ? "a duration" : "a number"
            let of = count == 1 ? "1 of \(NumberText.grouped(table.rowCount)) cells is" : "\(NumberText.grouped(count)) of \(NumberText.grouped(table.rowCount)) cells are"
            let place = rowLines.isEmpty ? " (row \(NumberText.grouped(first + 1)))" : ""
            var message = "\(c.name) is kept as text: \(of) not \(noun), the first \(value.quoted)\(place)"
            if was == .int || was == .double { message += "; number(\(c.name)) reads the others as numbers" }
            if case .timestamp = was {
                // The table's time is then another column, or none: say which, since hour,
                // day and the other buckets quietly use it.
                message += table.timeColumn.map { "; so the table's time is \($0): hour, day and the other buckets use it" }
                    ?? "; so the table has no time column"
            }
            out.append(LoadWarning(path: path, line: line, message, column: c.name))
        }
        return out
    }
}
