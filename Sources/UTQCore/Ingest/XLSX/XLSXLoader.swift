import Foundation

/// `load survey.xlsx [sheet NAME]`: one sheet of an Excel workbook as a table, the first
/// visible sheet unless one is named.
enum XLSXLoader {
    static func load(_ request: LoadRequest, name: String) throws -> LoadResult {
        let path = request.path
        if request.at != nil {
            throw LoadError(path: path, "at PATH is for JSON documents; in a workbook, name the sheet: load FILE sheet NAME")
        }
        if request.options.delimiter != nil {
            throw LoadError(path: path, "delimiter is for delimited text (CSV, TSV); a workbook's cells need none")
        }
        let book = try XLSXWorkbook.open(path, memoryLimit: request.memoryLimit, progress: request.progress)
        let sheet = try book.sheet(named: request.options.sheet)
        guard let part = sheet.part, book.contains(part) else {
            throw LoadError(path: path, "the workbook has no cells for sheet \(sheet.name.quoted)"
                            + (sheet.part.map { " (its part \($0) is missing)" } ?? "") + "; the file is damaged — open it in Excel or LibreOffice and save it again")
        }
        let styles = try book.stylesPart.map { stylesPart in
            try book.parse(stylesPart, try book.read(stylesPart)) { try XLSXStyles.parse(&$0) }
        } ?? XLSXStyles()
        let shared = try book.sharedStringsPart.map { stringsPart in
            try book.parse(stringsPart, try book.read(stringsPart)) { try XLSXSharedStrings.parse(&$0, cancel: request.cancel) }
        } ?? XLSXTexts()
        let cells: XLSXCells
        do {
            cells = try book.parse(part, try book.read(part)) {
                try XLSXSheetReader.read(&$0, styles: styles, shared: shared, cancel: request.cancel)
            }
        } catch let problem as XLSXSheetProblem {
            throw book.damaged(part, "(sheet \(sheet.name.quoted)) \(problem.message)")
        }
        var builder = XLSXTableBuilder(cells: cells, shared: shared, date1904: book.date1904, sheet: sheet.name, zone: request.zone, path: path)
        let table: Table
        do {
            table = try builder.build(name: name, options: request.options, memoryLimit: request.memoryLimit, cancel: request.cancel)
        } catch let problem as XLSXSheetProblem {
            throw LoadError(path: path, "sheet \(sheet.name.quoted) \(problem.message)" + (book.sheets.count > 1 ? "; the workbook has sheets: \(book.sheetList)" : ""))
        }
        return LoadResult(tables: [table], summary: summary(table, sheet: sheet.name, book: book, named: request.options.sheet != nil),
                          warnings: builder.warnings.finish())
    }

    /// `survey: 120 rows, 8 columns · sheet Data`, naming the other sheets when the first
    /// was taken without being asked for.
    static func summary(_ table: Table, sheet: String, book: XLSXWorkbook, named: Bool) -> String {
        var s = Loaders.summary(table) + " · sheet \(sheet)"
        let others = book.sheets.filter { $0.name != sheet && $0.isWorksheet }.map(\.name)
        if !named && !others.isEmpty {
            let shown = others.prefix(5).joined(separator: ", ") + (others.count > 5 ? ", …" : "")
            s += " (the workbook also has \(shown); load FILE sheet NAME reads another)"
        }
        return s
    }

    /// What a file in Microsoft's compound format is (the container of .xls workbooks, and of
    /// password-protected .xlsx ones), with what to do about it.
    static func describeCompoundFile(_ path: String) -> String {
        if isEncryptedPackage(path) {
            return "is a password-protected (encrypted) workbook; open it in Excel, remove the password "
                + "(File ▸ Info ▸ Protect Workbook ▸ Encrypt with Password, then clear it), save it, and load it again"
        }
        return "is an old Excel workbook (.xls) or another old Office file; open it in Excel or LibreOffice and save it as "
            + ".xlsx (Excel Workbook) or CSV, then load that"
    }

    /// An encrypted workbook is a compound file with a stream named `EncryptedPackage`;
    /// directory names are UTF-16, and the name is looked for in the first 64 MB.
    private static func isEncryptedPackage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let name = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        var carried: [UInt8] = []
        var read = 0
        while read < 64 << 20, let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            read += chunk.count
            let window = carried + [UInt8](chunk)
            if contains(window, name) { return true }
            carried = Array(window.suffix(name.count - 1))
        }
        return false
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
