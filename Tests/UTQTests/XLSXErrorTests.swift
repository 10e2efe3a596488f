import Foundation
import Testing
import ZIPFoundation
@testable import UTQCore

/// Workbooks that cannot be read say why and what to do: an unknown sheet lists the sheets,
/// an old .xls or a password-protected workbook says how to save it, a damaged zip or a
/// missing part names the file and the part. None of them is a crash.
@Suite struct XLSXErrorTests {
    static let folder = XLSXFixtures.folder

    /// A scratch file of its own for each test.
    static func scratch(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "utq-xlsx-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name
    }

    static func message(_ body: () throws -> Any) -> String {
        do { _ = try body(); return "(no error)" } catch let e as LoadError { return e.message } catch { return "not a LoadError: \(error)" }
    }

    /// A workbook from handmade.xlsx with some parts replaced or left out.
    static func variant(of base: String = "handmade.xlsx", replacing: [String: String] = [:], without: Set<String> = []) throws -> String {
        let source = try Archive(url: URL(fileURLWithPath: Repo.path("\(folder)/\(base)")), accessMode: .read)
        let path = scratch("variant.xlsx")
        let out = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for entry in source where !without.contains(entry.path) {
            var data = Data()
            if let text = replacing[entry.path] { data = Data(text.utf8) } else { _ = try source.extract(entry) { data.append($0) } }
            try out.addEntry(with: entry.path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        return path
    }

    @Test func anUnknownSheetNamesTheSheetsThereAre() {
        let m = Self.message { try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "Peple Staying") }
        #expect(m.contains("has no sheet \"Peple Staying\" (did you mean \"People Staying\"?)"), "\(m)")
        #expect(m.contains("the workbook has sheets: Lists, Types, People Staying, Empty"), "\(m)")
    }

    @Test func anEmptySheetAndAChartSheetSaySo() {
        let empty = Self.message { try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "Empty") }
        #expect(empty.contains("sheet \"Empty\" is empty; the workbook has sheets:"), "\(empty)")
        let chart = Self.message { try XLSXFixtures.load("\(Self.folder)/handmade.xlsx", sheet: "Chart1") }
        #expect(chart.contains("is a chart, not a sheet of cells"), "\(chart)")
    }

    @Test func sheetIsForWorkbooksOnly() {
        let m = Self.message { try XLSXFixtures.load("Tests/Fixtures/bad-input/good.csv", sheet: "Data") }
        #expect(m.contains("sheet NAME is for .xlsx workbooks"), "\(m)")
        let at = Self.message {
            var r = LoadRequest(path: Repo.path("\(Self.folder)/types.xlsx"), at: "rows", zone: .utc)
            r.options = LoadOptions()
            return try Loaders.load(r)
        }
        #expect(at.contains("at PATH is for JSON documents"), "\(at)")
    }

    @Test func anOldXLSOrAnEncryptedWorkbookSaysWhatToDo() throws {
        // The compound file header both share; an encrypted workbook has a stream called
        // EncryptedPackage, named in UTF-16 in the file's directory.
        let header: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504)
        let xls = Self.scratch("old.xls")
        try Data(header + [UInt8](repeating: 0x41, count: 2048)).write(to: URL(fileURLWithPath: xls))
        let old = Self.message { try XLSXFixtures.load(xls) }
        #expect(old.contains("old Excel workbook (.xls)") && old.contains("save it as .xlsx"), "\(old)")

        let locked = Self.scratch("locked.xlsx")
        let name = Array("EncryptedPackage".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try Data(header + [UInt8](repeating: 0, count: 3000) + name + [UInt8](repeating: 0, count: 100)).write(to: URL(fileURLWithPath: locked))
        let encrypted = Self.message { try XLSXFixtures.load(locked) }
        #expect(encrypted.contains("password-protected") && encrypted.contains("remove the password"), "\(encrypted)")
    }

    @Test func aDamagedZipNamesTheFile() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Repo.path("\(Self.folder)/types.xlsx")))
        let cut = Self.scratch("cut.xlsx")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let m = Self.message { try XLSXFixtures.load(cut) }
        #expect(m.contains("is not a zip archive") && m.contains("damaged"), "\(m)")

        // Bytes changed inside a compressed part: the checksum or the inflater says so.
        var spoiled = [UInt8](bytes)
        // The part's compressed bytes follow its name in its local header (no extra field here).
        let name = Array("xl/worksheets/sheet2.xml".utf8)
        let at = try #require((0..<(spoiled.count - name.count)).first { spoiled[$0..<($0 + name.count)].elementsEqual(name) })
        let start = at + name.count + 40
        for k in start..<(start + 30) { spoiled[k] ^= 0x5A }
        let changed = Self.scratch("changed.xlsx")
        try Data(spoiled).write(to: URL(fileURLWithPath: changed))
        let c = Self.message { try XLSXFixtures.load(changed, sheet: "Types") }
        #expect(c.contains("xl/worksheets/sheet2.xml") && c.contains("damaged"), "\(c)")
    }

    /// A member whose directory entry gives it more compressed bytes than the file holds, or
    /// fewer than its deflate stream needs: fuzzing found a reader that waited for ever on
    /// the first, reading past the end of the file.
    @Test func aMemberWhoseSizeIsFalseSaysSoAndEnds() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repo.path("\(Self.folder)/types.xlsx"))))
        let name = Array("_rels/.rels".utf8)
        // The directory's entry is the last place the name is written; its compressed size is
        // 20 bytes into the entry, whose name starts 46 bytes in.
        let at = try #require((0...(bytes.count - name.count)).last { bytes[$0..<($0 + name.count)].elementsEqual(name) })
        let entry = at - 46
        #expect(bytes[entry..<(entry + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]))
        for (size, words) in [(UInt32(10_354_880), "says it is longer than the file holds"), (UInt32(20), "ends before its compressed data does")] {
            var changed = bytes
            for k in 0..<4 { changed[entry + 20 + k] = UInt8(truncatingIfNeeded: size >> (8 * UInt32(k))) }
            let path = Self.scratch("false-size.xlsx")
            try Data(changed).write(to: URL(fileURLWithPath: path))
            let m = Self.message { try XLSXFixtures.load(path) }
            #expect(m.contains("_rels/.rels \(words)"), "\(m)")
        }
    }

    @Test func aMissingOrMalformedPartIsNamed() throws {
        let missing = try Self.variant(without: ["xl/worksheets/data.xml"])
        let m = Self.message { try XLSXFixtures.load(missing) }
        #expect(m.contains("xl/worksheets/data.xml") && m.contains("missing"), "\(m)")

        let noWorkbook = try Self.variant(without: ["xl/workbook.xml"])
        let w = Self.message { try XLSXFixtures.load(noWorkbook) }
        #expect(w.contains("not an Excel workbook: it has no xl/workbook.xml"), "\(w)")

        let broken = try Self.variant(replacing: ["xl/sharedStrings.xml": "<sst><si><t>cut short</si></sst>"])
        let b = Self.message { try XLSXFixtures.load(broken) }
        #expect(b.contains("xl/sharedStrings.xml is not well-formed XML: </si> closes <t>"), "\(b)")

        let farAway = try Self.variant(replacing: ["xl/worksheets/data.xml": """
            <worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="XFE1"><v>2</v></c></row></sheetData></worksheet>
            """])
        let f = Self.message { try XLSXFixtures.load(farAway) }
        #expect(f.contains("past column XFD"), "\(f)")
    }

    @Test func aZipThatIsNoWorkbookIsStillAFeed() throws {
        #expect(!XLSXWorkbook.isWorkbook(Repo.path("datasets/gtfs/demo-transit.zip")))
        #expect(try XLSXFixtures.load("datasets/gtfs/demo-transit.zip").tables.count > 3)
        #expect(XLSXWorkbook.isWorkbook(Repo.path("\(Self.folder)/handmade.xlsx")))
        #expect(!XLSXWorkbook.isWorkbook(Repo.path("Tests/Fixtures/bad-input/good.csv")))
    }

    @Test func aWideEmptySpanIsRefusedBeforeItIsMade() throws {
        // 5,000 rows of one cell and one cell in column XFD: 82 million cells, nearly all empty.
        let rows = (1...5000).map { "<row r=\"\($0)\"><c r=\"A\($0)\"><v>\($0)</v></c></row>" }.joined()
        let sparse = try Self.variant(replacing: ["xl/worksheets/data.xml": """
            <worksheet><sheetData>\(rows)<row r="5001"><c r="XFD5001"><v>2</v></c></row></sheetData></worksheet>
            """])
        var request = LoadRequest(path: sparse, zone: .utc, memoryLimit: 64 << 20)
        request.options = LoadOptions()
        let m = Self.message { try Loaders.load(request) }
        #expect(m.contains("spans 5,000 rows and 16,384 columns"), "\(m)")
    }
}
