import Foundation
import Testing
@testable import UTQCore

/// Parquet files written by pyarrow (every physical type, annotation, encoding, codec and
/// page version) and by DuckDB, read by utq and compared cell for cell with what pyarrow
/// reads from them: Tests/Fixtures/parquet/make.py wrote the files and the expectations.
@Suite struct ParquetTests {
    static let folder = "Tests/Fixtures/parquet"

    struct Expected: Decodable {
        struct ExpectedColumn: Decodable {
            var name: String
            var type: String
            var values: [String?]
        }
        var rows: Int
        var skipped: [String]
        var columns: [ExpectedColumn]
    }

    static func expected(for fixture: String) throws -> Expected {
        let base = fixture.hasPrefix("types_") ? "types" : String(fixture.dropLast(".parquet".count))
        let data = try Data(contentsOf: URL(fileURLWithPath: Repo.path("\(folder)/\(base).expected.json")))
        return try JSONDecoder().decode(Expected.self, from: data)
    }

    static func load(_ path: String, zone: ZoneRules = .utc) throws -> LoadResult {
        try Loaders.load(LoadRequest(path: path, zone: zone))
    }

    /// Whether utq's cell is the one pyarrow read (see make.py for how cells are written).
    static func same(_ value: Value, _ text: String?, type: String) -> Bool {
        guard let text else { return value == .null }
        switch (type, value) {
        case ("int", .int(let v)): return Int64(text) == v
        case ("double", .double(let v)):
            guard let d = Double(text == "nan" ? "nan" : text) else { return false }
            return d.isNaN ? v.isNaN : d == v
        case ("bool", .bool(let v)): return (text == "true") == v
        case ("string", .string(let v)): return v == text
        case ("timestamp", .timestamp(let v)), ("duration", .duration(let v)): return Int64(text) == v
        default: return false
        }
    }

    /// The first differences between a table and pyarrow's reading of the same file.
    static func differences(_ t: Table, _ e: Expected) -> [String] {
        var out: [String] = []
        if t.rowCount != e.rows { out.append("rows: \(t.rowCount), pyarrow \(e.rows)") }
        if t.columnNames != e.columns.map(\.name) { out.append("columns: \(t.columnNames), pyarrow \(e.columns.map(\.name))") }
        for ec in e.columns {
            guard let c = t.column(ec.name) else { continue }
            if c.type.rawValue != ec.type { out.append("\(ec.name): type \(c.type), expected \(ec.type)"); continue }
            var wrong = 0
            for (row, text) in ec.values.enumerated() where row < t.rowCount && !same(c.value(at: row), text, type: ec.type) {
                wrong += 1
                if wrong <= 3 { out.append("\(ec.name) row \(row): utq \(c.value(at: row)), pyarrow \(text ?? "null")") }
            }
            if wrong > 3 { out.append("\(ec.name): \(wrong) cells differ in all") }
        }
        return out
    }

    @Test func everyFixtureReadsAsPyarrowReadsIt() throws {
        let files = try Repo.files(in: Self.folder, ending: ".parquet").filter { !$0.hasPrefix("refused-") }
        #expect(files.count >= 24)
        for file in files {
            let result = try Self.load(Repo.path("\(Self.folder)/\(file)"))
            let e = try Self.expected(for: file)
            let problems = Self.differences(result.tables[0], e)
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
    }

    /// Text whose every row group starts with a dictionary is read dictionaries first, each
    /// row straight into the merged codes' width; a column with a PLAIN page is read the
    /// general way. Both read as pyarrow reads them (the fixture test above).
    @Test func textOfDictionariesIsReadStraightIntoItsWidth() throws {
        let path = Repo.path("\(Self.folder)/dictionaries.parquet")
        let request = LoadRequest(path: path, zone: .utc)
        let layout = try ParquetLayout(file: try ParquetFile(path: path), request: request)
        #expect(layout.starts.count == 5)
        var widths: [String: Int] = [:]
        let expected = try Self.expected(for: "dictionaries.parquet")
        for plan in layout.plans {
            let reader = ParquetColumnReader(file: layout.file, plan: plan, starts: layout.starts, zone: .utc, request: request,
                                             stop: ParallelParts(count: 1), pool: ChunkScratchPool())
            var notes: [String] = []
            guard let column = try reader.narrowText(&notes) else { continue }
            guard case .string(let s) = column.storage else { Issue.record("\(plan.name) is not text"); continue }
            widths[plan.name] = s.codes.width
            var t = Table(name: "t", columns: [column], zone: .utc)
            t.rowCount = layout.rows
            let e = expected.columns.first { $0.name == plan.name }!
            let one = Expected(rows: expected.rows, skipped: [], columns: [e])
            #expect(Self.differences(t, one).isEmpty, "\(plan.name): \(Self.differences(t, one))")
        }
        // `few` fits a byte, `many` (500 values, 200 in each group) needs two; `mixed` is not read this way.
        #expect(widths == ["few": 1, "many": 2])
    }

    @Test func timesKeepTheirKindAndUnit() throws {
        let t = try Self.load(Repo.path("\(Self.folder)/types_snappy_v1_dict.parquet")).tables[0]
        #expect(t.column("day")?.unit == .day)
        #expect(t.column("day")?.floating == true)
        #expect(t.column("ts_us_utc")?.floating == false)
        #expect(t.column("ts_ms_local")?.floating == true)
        #expect(t.column("clock_us")?.unit == .clock)
        #expect(t.column("always")?.validity == nil)
        #expect(t.column("nothing")?.type == .null)
        // Dates show as days, as a CSV of dates does.
        let session = makeSession()
        let shown = try session.table("load \(Self.folder)/types_snappy_v1_dict.parquet\nselect day | limit 1")
        #expect(TableWriter.text(shown, format: .csv).contains("2020-02-27\n"))
    }

    @Test func wallClockTimesArePlacedInTheTablesZone() throws {
        let oslo = ZoneRules.named("Europe/Oslo")!
        let path = Repo.path("\(Self.folder)/types_snappy_v1_dict.parquet")
        let utc = try Self.load(path).tables[0], local = try Self.load(path, zone: oslo).tables[0]
        #expect(local.zone.identifier == "Europe/Oslo")
        // Instants stay; wall-clock times keep their reading, an hour earlier as instants in winter.
        #expect(local.column("ts_us_utc")?.value(at: 0) == utc.column("ts_us_utc")?.value(at: 0))
        guard case .timestamp(let a)? = utc.column("ts_ms_local")?.value(at: 0),
              case .timestamp(let b)? = local.column("ts_ms_local")?.value(at: 0) else {
            Issue.record("ts_ms_local is not a timestamp"); return
        }
        #expect(a - b == 3_600_000_000)
    }

    @Test func nestedColumnsAreLeftOutWithAWarning() throws {
        let result = try Self.load(Repo.path("\(Self.folder)/nested.parquet"))
        #expect(result.tables[0].columnNames == ["id", "name", "score"])
        let text = result.warnings.map(\.message).joined(separator: "\n")
        for name in ["stops is a list", "place is a group of columns", "tags is a map"] {
            #expect(text.contains(name), "\(name) in \(text)")
        }
    }

    @Test func tableNameAndSummaryComeFromTheFile() throws {
        let session = makeSession()
        var notes: [String] = []
        _ = try session.table("load \(Self.folder)/many_pages.parquet\ncount", info: { notes.append($0) })
        #expect(notes.contains { $0.hasPrefix("many_pages: 2,400 rows") }, "\(notes)")
        #expect(try session.table("many_pages | count by mode").rowCount == 3)
    }

    @Test func optionsForTextFilesAreRefused() throws {
        let session = makeSession()
        let e = session.failure("load \(Self.folder)/nested.parquet with header=false")
        #expect(e?.message.contains("header= is for text") == true, "\(String(describing: e?.message))")
    }

    /// Bit-packed runs of every width, decoded in one call and in two split at several points
    /// (the second starting inside a group of eight): each value is the one packed.
    @Test func bitPackedValuesOfEveryWidth() throws {
        var random = SeededRandom(seed: 11)
        for width in 0...32 {
            let count = 8 * 37
            let values = (0..<count).map { _ in width == 0 ? UInt32(0) : UInt32(truncatingIfNeeded: random.next()) & UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(width)) - 1) }
            var packed = [UInt8](repeating: 0, count: count * width / 8)
            for (i, v) in values.enumerated() {
                for b in 0..<width where v >> UInt32(b) & 1 == 1 { packed[(i * width + b) >> 3] |= 1 << UInt8((i * width + b) & 7) }
            }
            // A run header: the number of groups of eight, shifted, and 1 for bit-packed.
            var bytes: [UInt8] = []
            var header = UInt64(count / 8) << 1 | 1
            while header >= 0x80 { bytes.append(UInt8(header & 0x7F) | 0x80); header >>= 7 }
            bytes.append(UInt8(header))
            bytes += packed
            for first in [count, 1, 7, 8, 9, 100] {
                let got = try bytes.withUnsafeBytes { raw -> [UInt32] in
                    var decoder = try HybridDecoder(raw, bitWidth: width)
                    var out = [UInt32](repeating: 0, count: count)
                    try out.withUnsafeMutableBufferPointer { o in
                        try decoder.decode(into: o.baseAddress!, count: min(first, count))
                        if first < count { try decoder.decode(into: o.baseAddress! + first, count: count - first) }
                    }
                    return out
                }
                #expect(got == values, "width \(width), first \(first)")
            }
        }
    }

    // MARK: Damaged files

    /// The message of a load that must fail, or a recorded issue when it does not.
    static func refusal(_ path: String) -> String? {
        do {
            _ = try load(path)
            Issue.record("\(path) loaded")
            return nil
        } catch let e as LoadError {
            return e.description
        } catch {
            Issue.record("\(path): not a LoadError: \(error)")
            return nil
        }
    }

    static func damaged(_ name: String, _ change: (inout [UInt8], ParquetFile) throws -> Void) throws -> String {
        let source = Repo.path("\(folder)/types_snappy_v1_dict.parquet")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        try change(&bytes, try ParquetFile(path: source))
        return try temporaryFile(name, bytes)
    }

    @Test func aFileCutShortSaysSo() throws {
        let path = try Self.damaged("cut.parquet") { b, _ in b.removeLast(b.count / 2) }
        let message = Self.refusal(path)
        #expect(message?.contains("cut.parquet: is a Parquet file that does not end with PAR1") == true, "\(String(describing: message))")
    }

    @Test func aDamagedFooterSaysSo() throws {
        let path = try Self.damaged("footer.parquet") { b, file in
            for i in file.footerStart..<(file.footerStart + 40) { b[i] = 0xFF }
        }
        let message = Self.refusal(path)
        #expect(message?.contains("its footer (the table of contents at the end) is damaged") == true, "\(String(describing: message))")
    }

    @Test func aDamagedPageNamesItsColumnRowGroupAndPage() throws {
        // The Snappy data of the first data page of column f64 (after its dictionary page).
        let path = try Self.damaged("page.parquet") { b, file in
            let leaf = file.footer.schema.dropFirst().firstIndex { $0.name == "f64" }! - 1
            let chunk = file.footer.rowGroups[0].columns[leaf]
            let start = Int(chunk.dataPageOffset)
            let headerLength = try b.withUnsafeBytes { raw -> Int in
                var r = ThriftReader(raw, from: start)
                _ = try ParquetPageHeader(&r)
                return r.pos - start
            }
            for i in 0..<4 { b[start + headerLength + i] = 0xFF }
        }
        let message = Self.refusal(path)
        #expect(message?.contains("column f64, row group 1, page 2: its Snappy data is damaged") == true, "\(String(describing: message))")
    }

    @Test func aCodecUtqDoesNotUnpackIsNamed() throws {
        let message = Self.refusal(Repo.path("\(Self.folder)/refused-lz4.parquet"))
        #expect(message?.contains("column i64, row group 1 is compressed with LZ4, which utq does not unpack") == true, "\(String(describing: message))")
    }

    @Test func aTextFileNamedParquetIsNotReadAsText() throws {
        let message = Self.refusal(try temporaryFile("text.parquet", "a,b\n1,2\n3,4\n"))
        #expect(message?.contains("does not start with PAR1") == true, "\(String(describing: message))")
    }
}
