import Foundation
import Testing
@testable import UTQCore

/// `save FILE.parquet`: what utq writes reads back the same in utq, in pyarrow and in DuckDB.
@Suite struct ParquetWriterTests {
    /// A table with every kind of column, nulls in each, awkward values, and a zone with
    /// summer time (wall-clock times and dates depend on it).
    static func sample(rows: Int = 300) -> Table {
        let zone = ZoneRules.named("Europe/London")!
        var valid = Bitmap(count: rows, value: true)
        for i in stride(from: 3, to: rows, by: 7) { valid[i] = false }
        let words = ["bus", "tram", "ø-line", "线路 3", "", "with, comma", "quote \" and\nline", String(repeating: "long ", count: 50)]
        let specials: [Double] = [.nan, .infinity, -.infinity, -0.0, 1e308, 5e-324]
        let doubles = (0..<rows).map { i in i % 11 == 0 ? specials[(i / 11) % specials.count] : Double(i) / 7 }
        let base: Int64 = 1_616_893_200_000_000  // 2021-03-28 01:00 UTC: clocks change in London
        var local = Column(name: "wall", storage: .timestamp((0..<rows).map { base + Int64($0) * 600_000_000 }), validity: valid)
        local.floating = true
        var days = Column(name: "day", storage: .timestamp((0..<rows).map { zone.instant(wallMicros: 1_616_889_600_000_000 + Int64($0 % 40) * 86_400_000_000) }),
                          validity: valid, unit: .day)
        days.floating = true
        let columns = [
            Column(name: "id", storage: .int((0..<rows).map { Int64($0) * 1_000_000_007 - 5 }), validity: nil),
            Column(name: "n", storage: .int((0..<rows).map { $0 == 1 ? .min : $0 == 2 ? .max : Int64($0) }), validity: valid),
            Column(name: "x", storage: .double(doubles), validity: valid),
            Column(name: "ok", storage: .bool((0..<rows).map { $0 % 3 == 0 }), validity: valid),
            Column(name: "mode", storage: .string(StringStorage(codes: (0..<rows).map { UInt32($0 % words.count) }, dictionary: words)), validity: valid),
            Column(name: "unique", storage: .string(StringStorage(codes: (0..<rows).map { UInt32($0) }, dictionary: (0..<rows).map { "id-\($0)" }))),
            Column(name: "at", storage: .timestamp((0..<rows).map { base + Int64($0) * 61_000_001 }), validity: valid),
            local, days,
            Column(name: "took", storage: .duration((0..<rows).map { Int64($0) * 90_000_000 }), validity: valid, unit: .clock),
            Column.nulls("nothing", count: rows),
        ]
        return Table(name: "sample", columns: columns, zone: zone)
    }

    static func written(_ t: Table, name: String, rowGroupSize: Int = ParquetWriter.rowGroupSize) throws -> String {
        let path = try temporaryFile(name, "")
        let fd = open(path, O_WRONLY | O_TRUNC)
        defer { close(fd) }
        try ParquetWriter.write(t, to: fd, rowGroupSize: rowGroupSize)
        return path
    }

    /// Every cell as text, with its column's type, unit and whether its times are wall clock.
    static func cells(_ t: Table) -> [String] {
        t.columns.flatMap { c in
            ["\(c.name) \(c.type) \(c.unit) floating=\(c.floating)"] + (0..<t.rowCount).map { "\(c.name)[\($0)] \(c.value(at: $0))" }
        }
    }

    @Test(arguments: [ParquetWriter.rowGroupSize, 7, 128])
    func utqReadsBackWhatItWrote(rowGroupSize: Int) throws {
        let t = Self.sample()
        let path = try Self.written(t, name: "roundtrip-\(rowGroupSize).parquet", rowGroupSize: rowGroupSize)
        let back = try Loaders.load(LoadRequest(path: path, zone: .utc)).tables[0]
        #expect(back.zone.identifier == "Europe/London")
        #expect(back.rowCount == t.rowCount)
        let a = Self.cells(t), b = Self.cells(back)
        let first = zip(a, b).first { $0 != $1 }
        #expect(a == b, "first difference: \(String(describing: first))")
    }

    @Test func savingATableWritesParquetWithANoteForDurations() throws {
        let session = makeSession()
        let path = try temporaryFile("saved.parquet", "")
        unlink(path)
        var notes: [String] = []
        _ = try session.table("load datasets/trips.csv\nsave \(path)\nload \(path) as again\ncount", info: { notes.append($0) })
        #expect(notes.contains { $0.hasPrefix("saved ") }, "\(notes)")
        let trips = try session.table("trips"), again = try session.table("again")
        #expect(Self.cells(trips) == Self.cells(again.renamedTable("trips")))
        if trips.columns.contains(where: { $0.type == .duration }) {
            #expect(notes.contains { $0.contains("written as whole microseconds") }, "\(notes)")
        }
    }

    @Test func anEmptyTableIsAFileOfColumnsWithoutRows() throws {
        let t = Self.sample().prefix(0)
        let back = try Loaders.load(LoadRequest(path: try Self.written(t, name: "empty-out.parquet"), zone: .utc)).tables[0]
        #expect(back.rowCount == 0)
        #expect(back.columnNames == t.columnNames)
    }

    // MARK: Other readers

    /// Runs a Python script with arguments; its standard output, or nil with a note when
    /// no Python has the modules.
    static func python(_ modules: String, _ script: String, _ arguments: [String]) throws -> String? {
        guard let python = Oracle.python(with: modules) else { return nil }
        let parts = python.split(separator: " ").map(String.init)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + ["-c", script] + arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestError(description: "python: \(errors)") }
        return text
    }

    @Test func pyarrowReadsWhatUtqWrote() throws {
        let t = Self.sample()
        let path = try Self.written(t, name: "for-pyarrow.parquet", rowGroupSize: 128)
        // make.py's own description of a file, as for the fixtures it reads.
        let script = "import sys; sys.path.insert(0, sys.argv[1]); import make; make.write_expected(sys.argv[2])"
        guard try Self.python("pyarrow", script, [Repo.path(ParquetTests.folder), path]) != nil else {
            print("skipped: no Python with pyarrow (make oracle-deps installs one)")
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: ".parquet", with: ".expected.json")))
        var e = try JSONDecoder().decode(ParquetTests.Expected.self, from: data)
        // Parquet has no durations: pyarrow sees the microseconds as whole numbers.
        for k in e.columns.indices where e.columns[k].name == "took" {
            #expect(e.columns[k].type == "int")
            e.columns[k].type = "duration"
        }
        // pyarrow reads wall-clock times as they read on the wall; utq holds them as instants
        // in the table's zone: compare in the zone's wall time.
        var wall = t
        for k in wall.columns.indices where wall.columns[k].floating {
            if case .timestamp(let v) = wall.columns[k].storage { wall.columns[k].storage = .timestamp(v.map { t.zone.wallMicros($0) }) }
        }
        let problems = ParquetTests.differences(wall, e)
        #expect(problems.isEmpty, "\(problems.joined(separator: "; "))")
    }

    @Test func duckdbReadsWhatUtqWrote() throws {
        let t = Self.sample()
        let path = try Self.written(t, name: "for-duckdb.parquet", rowGroupSize: 128)
        // Every cell as text: whole numbers and text as they are, numbers as DuckDB writes
        // doubles, times as microseconds (wall-clock ones as they read on the wall).
        let script = """
        import duckdb, json, sys
        c = duckdb.connect(); c.sql("SET TimeZone = 'UTC'")
        cols = [r[0] for r in c.sql(f"DESCRIBE SELECT * FROM '{sys.argv[1]}'").fetchall()]
        types = dict(c.sql(f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '{sys.argv[1]}')").fetchall())
        def expr(name):
            q = '"' + name + '"'
            if types[name].startswith("TIMESTAMP") or types[name] == "DATE":
                return f"CAST(epoch_us({q}::TIMESTAMP) AS VARCHAR)"
            return f"CAST({q} AS VARCHAR)"
        rows = c.sql("SELECT " + ", ".join(expr(n) for n in cols) + f" FROM '{sys.argv[1]}'").fetchall()
        print(json.dumps({"types": types, "columns": cols, "rows": rows}))
        """
        guard let out = try Self.python("duckdb", script, [path]) else {
            print("skipped: no Python with duckdb (make oracle-deps installs one)")
            return
        }
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        let types = json["types"] as! [String: String]
        #expect(json["columns"] as? [String] == t.columnNames)
        #expect(types["at"] == "TIMESTAMP WITH TIME ZONE" && types["wall"] == "TIMESTAMP" && types["day"] == "DATE", "\(types)")
        let rows = json["rows"] as! [[Any]]
        #expect(rows.count == t.rowCount)
        var differences: [String] = []
        for (r, row) in rows.enumerated() {
            for (k, c) in t.columns.enumerated() {
                let text = row[k] as? String
                let v = c.value(at: r)
                let same: Bool
                switch v {
                case .null: same = text == nil
                case .int(let i), .duration(let i): same = text == String(i)
                case .double(let d):
                    let duck = text.flatMap { $0 == "nan" ? .nan : $0 == "inf" ? .infinity : $0 == "-inf" ? -.infinity : Double($0) }
                    same = duck.map { $0.isNaN ? d.isNaN : $0 == d } ?? false
                case .bool(let b): same = text == (b ? "true" : "false")
                case .string(let s): same = text == s
                case .timestamp(let i): same = text == String(c.floating ? t.zone.wallMicros(i) : i)
                case .geometry(let g): same = text == WKT.text(g)
                }
                if !same && differences.count < 5 { differences.append("\(c.name)[\(r)]: utq \(v), DuckDB \(text ?? "NULL")") }
            }
        }
        #expect(differences.isEmpty, "\(differences)")
    }
}

extension Table {
    func renamedTable(_ name: String) -> Table {
        var t = self
        t.name = name
        return t
    }
}
