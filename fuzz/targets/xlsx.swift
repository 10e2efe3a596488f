import Foundation
@testable import UTQCore

/// Excel workbooks: the input as an .xlsx file, loaded as a user does, every sheet of it (a
/// few at most); and the input as a sheet's XML, read against the shared strings and styles
/// of the handmade fixture (a byte changed inside a zip only breaks its checksum, so this is
/// where the sheet reader and the typing of columns meet arbitrary cells).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXLSX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.file("input.xlsx", data, size)
    if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
        if let book = try? XLSXWorkbook.open(path, memoryLimit: nil, progress: nil) {
            for sheet in book.sheets.prefix(4) {
                var request = LoadRequest(path: path, zone: .utc)
                request.options.sheet = sheet.name
                if let t = Fuzz.expectingUserErrors("load sheet", { try Loaders.load(request) }) { t.tables.forEach(Fuzz.show) }
            }
        }
    }
    let oslo = ZoneRules.named("Europe/Oslo")!
    for header in [true, false] {
        if let t = XLSXFuzz.sheet(Array(UnsafeBufferPointer(start: data, count: size)), header: header, zone: header ? .utc : oslo) {
            Fuzz.show(t)
        }
    }
    return 0
}

enum XLSXFuzz {
    /// The handmade fixture's shared strings and styles.
    nonisolated(unsafe) static let parts: (shared: XLSXTexts, styles: XLSXStyles) = {
        let book = try! XLSXWorkbook.open(Fuzz.root + "/Tests/Fixtures/xlsx/handmade.xlsx", memoryLimit: nil, progress: nil)
        let shared = try! book.parse("xl/sharedStrings.xml", try! book.read("xl/sharedStrings.xml")) { try XLSXSharedStrings.parse(&$0, cancel: nil) }
        let styles = try! book.parse("xl/styles.xml", try! book.read("xl/styles.xml")) { try XLSXStyles.parse(&$0) }
        return (shared, styles)
    }()

    /// The bytes as a sheet part, made a table; nil when they are refused as the loader
    /// refuses them (not well-formed, a cell past XFD, an empty sheet, too large).
    static func sheet(_ bytes: [UInt8], header: Bool, zone: ZoneRules) -> Table? {
        do {
            let cells = try bytes.withUnsafeBytes { raw in
                var x = XMLScanner(raw)
                return try XLSXSheetReader.read(&x, styles: parts.styles, shared: parts.shared, cancel: nil)
            }
            var options = LoadOptions()
            options.header = header
            var builder = XLSXTableBuilder(cells: cells, shared: parts.shared, date1904: !header, sheet: "Fuzz 'sheet'", zone: zone, path: "fuzz.xlsx")
            let table = try builder.build(name: "t", options: options, memoryLimit: 256 << 20, cancel: nil)
            _ = builder.warnings.finish().map(\.description)
            for c in table.columns where c.count != table.rowCount { fatalError("column \(c.name) has \(c.count) rows of \(table.rowCount)") }
            return table
        } catch is XMLScanner.Malformed {
            return nil
        } catch is XLSXSheetProblem {
            return nil
        } catch {
            fatalError("the sheet reader threw \(type(of: error)): \(error)")
        }
    }
}
