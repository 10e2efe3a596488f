import Foundation
import Testing
@testable import UTQCore

/// CSV, TSV, JSON and NDJSON written a column's way (RowsWriter) against the cell-by-cell
/// way: each cell's text (MachineCell) quoted by TableWriter.appendDelimited, or its JSON,
/// row after row.
@Suite struct RowsWriterTests {
    /// The cell-by-cell bytes, as the writer made them before it wrote by column.
    static func byCells(_ t: Table, sep: UInt8, csvSafe: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for (i, c) in t.columns.enumerated() {
            if i > 0 { out.append(sep) }
            TableWriter.appendDelimited(&out, c.name, sep: sep, csvSafe: false)
        }
        out.append(0x0A)
        let cells = t.columns.map { MachineCell(column: $0, zone: t.zone) }
        for r in 0..<t.rowCount {
            for i in cells.indices {
                if i > 0 { out.append(sep) }
                if let s = cells[i].text(r) {
                    TableWriter.appendDelimited(&out, s, sep: sep, csvSafe: csvSafe && cells[i].column.type == .string)
                }
            }
            out.append(0x0A)
        }
        return out
    }

    /// The cell-by-cell JSON (an array) or NDJSON.
    static func jsonByCells(_ t: Table, array: Bool) -> [UInt8] {
        var out: [UInt8] = []
        let cells = t.columns.map { MachineCell(column: $0, zone: t.zone) }
        let names = t.columns.map { JSONText.quote($0.name) }
        if array { out.append(contentsOf: "[".utf8) }
        for r in 0..<t.rowCount {
            if array { out.append(contentsOf: (r == 0 ? "\n  " : ",\n  ").utf8) }
            out.append(0x7B)
            for i in cells.indices {
                if i > 0 { out.append(0x2C) }
                out.append(contentsOf: names[i].utf8)
                out.append(0x3A)
                out.append(contentsOf: cells[i].json(r).utf8)
            }
            out.append(0x7D)
            if !array { out.append(0x0A) }
        }
        if array { out.append(contentsOf: (t.rowCount == 0 ? "]\n" : "\n]\n").utf8) }
        return out
    }

    /// Every kind of column, nulls among them, over more rows than the cores' first blocks.
    static func table(rows: Int, zone: ZoneRules) -> Table {
        var rng = SystemRandomNumberGenerator()
        let texts = ["Bike", "a,b", "say \"hi\"", "two\nlines", " padded ", "=SUM(A1)", "+1", "-x", "@home", "", "Café", "tab\there", "cr\rhere"]
        let ints: [Int64] = [0, -1, 7, Int64.max, Int64.min, 1_000_000, -987_654_321]
        let doubles: [Double] = [0, -0.0, 0.1, 1.5, -2.25, 1e-5, 1e20, 123456789.125, .nan, .infinity, -.infinity, 474, 1e15, 3.0e-300]
        // Instants across years 0001-9999 and outside them, whole seconds and fractions.
        let seconds: [Int64] = [0, -1, 1_490_000_000, 1_490_486_400 - 1, 1_509_238_800, 253_402_300_799, -62_135_596_800,
                                -62_135_596_801, 253_402_300_800, 1_711_846_800, 1_711_846_799, 951_782_400]
        var codes: [UInt32] = [], i64: [Int64] = [], dbl: [Double] = [], flags: [Bool] = [], times: [Int64] = [], days: [Int64] = [], spans: [Int64] = []
        var valid = Bitmap(count: rows, value: true)
        for r in 0..<rows {
            codes.append(UInt32.random(in: 0..<UInt32(texts.count), using: &rng))
            i64.append(r % 5 == 0 ? ints[r % ints.count] : Int64.random(in: -1_000_000_000...1_000_000_000, using: &rng))
            dbl.append(r % 3 == 0 ? doubles[r % doubles.count] : Double(Int.random(in: -99_999...99_999, using: &rng)) / 100)
            flags.append(r % 2 == 0)
            let micros: Int64 = [0, 500_000, 123_456, 1, 100_000, 999_999][r % 6]
            let s = r % 4 == 0 ? seconds[r % seconds.count] : Int64.random(in: 0...2_000_000_000, using: &rng)
            times.append(s * 1_000_000 + micros)
            days.append(Int64.random(in: 0...20_000, using: &rng) * 86_400_000_000)
            spans.append(Int64.random(in: -90_000_000_000...90_000_000_000, using: &rng))
            if r % 7 == 3 { valid[r] = false }
        }
        // Rows in time order, as logs come, a few dozen a day over two years: the zone's cursor
        // walks forward and days hold the clock changes.
        let sorted = (0..<rows).map { Int64(1_451_606_400 + 63_072_000 * $0 / rows) * 1_000_000 + Int64($0 % 3) * 250_000 }
        return Table(name: "t", columns: [
            Column(name: "text", storage: .string(StringStorage(codes: codes, dictionary: texts)), validity: valid),
            Column(name: "n", storage: .int(i64), validity: r(valid, 1)),
            Column(name: "x, y", storage: .double(dbl), validity: r(valid, 2)),
            Column(name: "ok", storage: .bool(flags), validity: r(valid, 3)),
            Column(name: "time", storage: .timestamp(times), validity: r(valid, 4)),
            Column(name: "sorted", storage: .timestamp(sorted)),
            Column(name: "day", storage: .timestamp(days), unit: .day),
            Column(name: "took", storage: .duration(spans), validity: r(valid, 5)),
            Column.nulls("nothing", count: rows),
        ], zone: zone)
    }

    /// The validity moved by `k` rows, so nulls fall on different rows in each column.
    static func r(_ v: Bitmap, _ k: Int) -> Bitmap {
        var out = Bitmap(count: v.count, value: true)
        for i in 0..<v.count where !v[(i + k) % v.count] { out[i] = false }
        return out
    }

    @Test(arguments: ["UTC", "Europe/Oslo", "America/St_Johns", "Asia/Kathmandu"])
    func writesTheBytesTheCellByCellWayWrites(zone: String) throws {
        // Small blocks, so the cores fill several rounds of them and the last one is short.
        let blocks = 1_000, rows = 20_123
        let t = Self.table(rows: rows, zone: try #require(ZoneRules.named(zone)))
        func written(_ format: OutputFormat, csvSafe: Bool = false) -> [UInt8] {
            var out: [UInt8] = []
            try? RowsWriter(t, RowsWriter.framing(format, csvSafe: csvSafe)!, blockRows: blocks).write { out.append(contentsOf: $0) }
            return out
        }
        var cases: [(String, [UInt8], [UInt8])] = []
        for (format, sep) in [(OutputFormat.csv, UInt8(0x2C)), (.tsv, 0x09)] {
            for safe in [false, true] {
                cases.append(("\(format) safe \(safe)", written(format, csvSafe: safe), Self.byCells(t, sep: sep, csvSafe: safe)))
            }
        }
        cases.append(("json", written(.json), Self.jsonByCells(t, array: true)))
        cases.append(("ndjson", written(.ndjson), Self.jsonByCells(t, array: false)))
        // And the whole way, in the blocks a save fills.
        cases.append(("csv in whole blocks", TableWriter.bytes(t, format: .csv), Self.byCells(t, sep: 0x2C, csvSafe: false)))
        for (name, fast, slow) in cases where fast != slow {
            let lines = (String(decoding: fast, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false),
                         String(decoding: slow, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false))
            let first = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("\(zone) \(name): line \(first?.offset ?? -1): \(first.map { "\($0.element.0) against \($0.element.1)" } ?? "lengths differ")")
        }
    }

    @Test func fewRowsAndNone() {
        // An empty table, one row, and a table without columns, in every format.
        let t = Self.table(rows: 50, zone: .utc)
        for n in [0, 1, 2] {
            let part = Table(name: "t", columns: t.columns.map { $0.slice(0..<n) }, zone: t.zone)
            let bare = Table(name: "t", columns: [], zone: t.zone)
            for table in [part, bare] {
                #expect(TableWriter.bytes(table, format: .csv) == Self.byCells(table, sep: 0x2C, csvSafe: false), "\(n) rows")
                #expect(TableWriter.bytes(table, format: .json) == Self.jsonByCells(table, array: true), "\(n) rows")
                #expect(TableWriter.bytes(table, format: .ndjson) == Self.jsonByCells(table, array: false), "\(n) rows")
            }
        }
    }

    @Test func aSavedFileHoldsTheSameBytesAndReadsBack() throws {
        let t = Self.table(rows: 3_005, zone: ZoneRules.named("Europe/Oslo")!)
        let s = makeSession()
        s.workspace.put([t], makeCurrent: false)
        let dir = NSTemporaryDirectory() + "utq-delimited-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try s.table("t | save \(dir)/t.csv; t | save \(dir)/t.tsv; t | save \(dir)/t.csv.gz; t | save \(dir)/t.json; t | save \(dir)/t.ndjson; t | limit 1")
        func file(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))) }
        #expect(try file("t.csv") == Self.byCells(t, sep: 0x2C, csvSafe: false))
        #expect(try file("t.tsv") == Self.byCells(t, sep: 0x09, csvSafe: false))
        #expect(try file("t.json") == Self.jsonByCells(t, array: true))
        #expect(try file("t.ndjson") == Self.jsonByCells(t, array: false))
        let back = try s.table("load \(dir)/t.csv.gz as back; back | count")
        #expect(back.strings("count") == ["\(t.rowCount)"])
    }
}
