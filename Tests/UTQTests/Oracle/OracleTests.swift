import Foundation
import Testing
@testable import UTQCore

/// The differential oracle: random tables and pipelines run through utq and, translated to
/// SQL with utq's documented semantics, through DuckDB; the results must agree as multisets
/// (in order, where the pipeline sorts totally), numbers to a relative 1e-9. A case that
/// does not agree is shrunk to the fewest rows that still disagree and printed as a
/// reproduction. `make test` runs fixed seeds; `make oracle SEED=… CASES=…` runs any number
/// (UTQ_ORACLE_SEED, UTQ_ORACLE_CASES).
@Suite(.serialized) struct OracleTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds: [UInt64] = environment["UTQ_ORACLE_SEED"].flatMap(UInt64.init).map { [$0] } ?? [1, 2, 3]
    static let cases = environment["UTQ_ORACLE_CASES"].flatMap(Int.init) ?? 120
    /// Cases per table: each seed makes new tables every so many cases.
    static let casesPerTable = 20

    @Test(arguments: seeds)
    func utqAndDuckDBAgree(_ seed: UInt64) throws {
        let python = try #require(Oracle.python(), "the oracle needs Python with duckdb and pytz: make oracle-deps installs them")
        var g = OracleRandom(seed: seed)
        var report = Oracle.Report()
        var done = 0
        // Cases with a summary of two columns anywhere (a join's area counts some of them).
        var paired = 0
        while done < Self.cases {
            let tables = OracleTables(&g)
            var gen = OracleGenerator(g: OracleRandom(seed: g.next()))
            let b = tables.a.column("b")!
            let present = Set((0..<tables.a.rowCount).map { b.isValid($0) ? b.value(at: $0) : .null })
            gen.bValues = [Value.bool(false), .bool(true), .null].filter(present.contains).map { v -> Bool? in
                if case .bool(let x) = v { return x } else { return nil }
            }
            let batch = (0..<min(Self.casesPerTable, Self.cases - done)).map { gen.makeCase(id: done + $0) }
            done += batch.count
            paired += batch.filter { c in OracleGenerator.pairedNames.contains { c.utq.contains(" \($0)(") || c.utq.contains(" \($0) ") } }.count
            let theirs = try Oracle.duckdb(batch, tables, python: python)
            for c in batch {
                var forced = c.forces.indices.map { theirs[Oracle.forceID(c.id, $0)] ?? .failed("no result") }
                let mine = Oracle.utq(c, tables)
                if let check = Oracle.overflowCheck(mine) {
                    // utq computes a condition on every row that reaches it; DuckDB may skip
                    // rows another condition rules out first. Made to compute it, does it fail?
                    forced += try Oracle.duckdb([OracleCase(id: c.id, area: "", utq: "", sql: check, ordered: false)], tables, python: python).values
                }
                var verdict = Oracle.compare(mine, theirs[c.id] ?? .failed("no result"), ordered: c.ordered, forced: forced)
                if case .disagree = verdict, case .failed(let why) = theirs[c.id], why.contains("Overflow"), Oracle.utqRefusesAlone(c, tables) {
                    verdict = .bothFailed
                }
                report.count(c.area, verdict)
                if case .disagree(let why) = verdict {
                    let small = try Oracle.shrink(c, tables, python: python)
                    Issue.record("""
                        seed \(seed), case \(c.id) (\(c.area)): \(why)
                        utq: \(c.utq)
                        sql: \(c.sql)
                        smallest table a that still disagrees (\(small.rowCount) rows):
                        \(OracleTables.csv(small))
                        """)
                }
            }
        }
        print("oracle seed \(seed): " + report.summary + "; \(paired) cases with summaries of two columns")
        #expect(report.total == Self.cases)
    }
}

/// Running cases through both engines and comparing what they give.
enum Oracle {
    /// A result cell in a form both engines' values can be compared in.
    enum Cell: Equatable {
        case null, bool(Bool), number(Double), bigInt(String), text(String), time(Int64), other(String)
    }

    enum Outcome {
        case rows([[Cell]])
        case failed(String)
    }

    enum Verdict {
        case agree, bothFailed, disagree(String)
    }

    struct Report {
        var byArea: [String: (agree: Int, bothFailed: Int, disagree: Int)] = [:]
        var total: Int { byArea.values.reduce(0) { $0 + $1.agree + $1.bothFailed + $1.disagree } }

        mutating func count(_ area: String, _ v: Verdict) {
            var e = byArea[area] ?? (0, 0, 0)
            switch v {
            case .agree: e.agree += 1
            case .bothFailed: e.bothFailed += 1
            case .disagree: e.disagree += 1
            }
            byArea[area] = e
        }

        var summary: String {
            byArea.keys.sorted().map { k in
                let e = byArea[k]!
                return "\(k) \(e.agree) agree" + (e.bothFailed > 0 ? ", \(e.bothFailed) both refuse" : "") + (e.disagree > 0 ? ", \(e.disagree) DISAGREE" : "")
            }.joined(separator: "; ")
        }
    }

    /// Python with duckdb: the one on the PATH, or the one `make test` keeps in .build.
    static func python(with modules: String = "duckdb, pytz, numpy") -> String? {
        for candidate in [Repo.path(".build/oracle-venv/bin/python"), "/usr/bin/env python3"] {
            let parts = candidate.split(separator: " ").map(String.init)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: parts[0])
            p.arguments = Array(parts.dropFirst()) + ["-c", "import " + modules]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { continue }
            p.waitUntilExit()
            if p.terminationStatus == 0 { return candidate }
        }
        return nil
    }

    // MARK: utq

    static func utq(_ c: OracleCase, _ tables: OracleTables, a: Table? = nil) -> Outcome {
        let s = makeSession()
        s.workspace.put([tables.r, a ?? tables.a], makeCurrent: true)
        var result: Table? = nil
        var error: String? = nil
        s.run(c.utq, name: "<oracle>") { _, outcome in
            if let e = outcome.error { error = e.message }
            for case .table(let r) in outcome.outputs { result = r.table }
        }
        if let error { return .failed(error) }
        guard let t = result else { return .failed("no table") }
        return .rows((0..<t.rowCount).map { row in t.columns.map { cell($0.value(at: row)) } })
    }

    static func cell(_ v: Value) -> Cell {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return i.magnitude < 1 << 53 ? .number(Double(i)) : .bigInt(String(i))
        case .double(let d): return d.isNaN ? .other("nan") : (d.isInfinite ? .other(d > 0 ? "inf" : "-inf") : .number(d))
        case .string(let s): return .text(s)
        case .timestamp(let t): return .time(t)
        case .duration(let d): return .other("duration \(d)")
        case .geometry(let g): return .text(WKT.text(g))
        }
    }

    // MARK: DuckDB

    static func duckdb(_ cases: [OracleCase], _ tables: OracleTables, python: String, a: Table? = nil) throws -> [Int: Outcome] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-oracle-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let aTable = a ?? tables.a
        try OracleTables.csv(aTable).write(toFile: dir + "/a.csv", atomically: true, encoding: .utf8)
        try OracleTables.csv(tables.r).write(toFile: dir + "/r.csv", atomically: true, encoding: .utf8)
        let spec: [String: Any] = [
            "zone": "Europe/Oslo",
            "tables": [["name": "a", "path": dir + "/a.csv", "columns": OracleTables.sqlTypes(aTable)],
                       ["name": "r", "path": dir + "/r.csv", "columns": OracleTables.sqlTypes(tables.r)]],
            "cases": cases.flatMap { c in [["id": c.id, "sql": c.sql]] + c.forces.enumerated().map { ["id": forceID(c.id, $0), "sql": $1] } },
        ]
        return try runDuckDB(spec, in: dir, python: python)
    }

    /// Runs oracle_duckdb.py on a spec (zone, tables to read, cases) written into `dir`, and
    /// reads back each case's rows or error.
    static func runDuckDB(_ spec: [String: Any], in dir: String, python: String) throws -> [Int: Outcome] {
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: dir + "/cases.json"))
        let parts = python.split(separator: " ").map(String.init)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/oracle_duckdb.py"), dir + "/cases.json", dir + "/results.json"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestError(description: "oracle_duckdb.py: \(errText)") }
        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))) as! [[String: Any]]
        var out: [Int: Outcome] = [:]
        for r in results {
            let id = r["id"] as! Int
            if let e = r["error"] as? String { out[id] = .failed(e); continue }
            out[id] = .rows((r["rows"] as! [[Any]]).map { $0.map(cell(json:)) })
        }
        return out
    }

    /// Whether utq too finds one of the case's expressions out of range, computed on every
    /// row of table a (as DuckDB does when it moves a condition below a join).
    static func utqRefusesAlone(_ c: OracleCase, _ tables: OracleTables) -> Bool {
        c.expressions.contains { e in
            if case .failed(let m) = utq(OracleCase(id: c.id, area: "", utq: "a | let check_ = (\(e)) | count", sql: "", ordered: false), tables) {
                return m.contains("past the range of whole numbers")
            }
            return false
        }
    }

    /// For an utq error that an expression of table a's columns is out of range, a query
    /// that has DuckDB compute that expression on every row of a.
    static func overflowCheck(_ outcome: Outcome) -> String? {
        guard case .failed(let message) = outcome, let r = message.range(of: " is past the range of whole numbers") else { return nil }
        let expression = String(message[..<r.lowerBound])
        let allowed = CharacterSet(charactersIn: "0123456789 +-*()idk")
        guard !expression.contains("%"), expression.unicodeScalars.allSatisfy({ allowed.contains($0) }) else { return nil }
        return "SELECT list(\(expression)) FROM a"
    }

    /// The ids of a case's forcing queries, apart from every case's own.
    static func forceID(_ id: Int, _ k: Int) -> Int { 1_000_000 + id * 100 + k }

    static func cell(json v: Any) -> Cell {
        if v is NSNull { return .null }
        if let n = v as? NSNumber { return .number(n.doubleValue) }
        if let s = v as? String { return .text(s) }
        if let o = v as? [String: Any] {
            if let t = o["t"] as? NSNumber { return .time(t.int64Value) }
            if let b = o["b"] as? Bool { return .bool(b) }
            if let b = o["b"] as? NSNumber { return .bool(b.boolValue) }
            if let i = o["int"] as? String { return .bigInt(i) }
            if let f = o["float"] as? String { return .other(f) }
            return .other("\(o)")
        }
        return .other("\(v)")
    }

    // MARK: comparing

    static func compare(_ mine: Outcome, _ theirs: Outcome, ordered: Bool, forced: [Outcome] = []) -> Verdict {
        switch (mine, theirs) {
        case (.failed(let a), .failed):
            _ = a
            return .bothFailed
        case (.failed(let a), .rows(let rows)):
            // A column DuckDB skipped because nothing reads it: made to compute it, it fails too.
            if a.contains("past the range of whole numbers"), forced.contains(where: { if case .failed = $0 { return true } else { return false } }) {
                return .bothFailed
            }
            // A sum past 64 bits is an error in utq and a wider number in DuckDB.
            if a.contains("past the range of whole numbers"), rows.contains(where: { $0.contains { if case .bigInt(let s) = $0 { return Int64(s) == nil } else { return false } } }) {
                return .bothFailed
            }
            return .disagree("utq failed: \(a); DuckDB gave \(rows.count) rows")
        case (.rows(let rows), .failed(let b)):
            return .disagree("DuckDB failed: \(b); utq gave \(rows.count) rows")
        case (.rows(let x), .rows(let y)):
            guard x.count == y.count else { return .disagree("utq gave \(x.count) rows, DuckDB \(y.count)") }
            let a = ordered ? x : x.sorted { key($0) < key($1) }
            let b = ordered ? y : y.sorted { key($0) < key($1) }
            for (i, (r, s)) in zip(a, b).enumerated() {
                guard r.count == s.count, zip(r, s).allSatisfy(same) else {
                    return .disagree("row \(i + 1): utq \(r), DuckDB \(s)")
                }
            }
            return .agree
        }
    }

    static func same(_ a: Cell, _ b: Cell) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return x == y || abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
        case (.bigInt(let x), .number(let y)), (.number(let y), .bigInt(let x)):
            return Double(x).map { $0 == y } ?? false
        default:
            return a == b
        }
    }

    /// Rows sorted by a text that treats numbers the same to nine digits.
    static func key(_ row: [Cell]) -> String {
        row.map { c -> String in
            switch c {
            case .null: return "0"
            case .bool(let b): return "1\(b)"
            case .number(let d): return "2" + String(format: "%.9g", d)
            case .bigInt(let s): return "2" + String(format: "%.9g", Double(s) ?? 0)
            case .text(let s): return "3" + s
            case .time(let t): return "4\(t)"
            case .other(let s): return "5" + s
            }
        }.joined(separator: "\u{1}")
    }

    // MARK: shrinking

    /// The fewest rows of table a on which the case still disagrees: halves first, then one
    /// row at a time.
    static func shrink(_ c: OracleCase, _ tables: OracleTables, python: String) throws -> Table {
        var rows = Array(0..<tables.a.rowCount)
        func disagrees(_ keep: [Int]) throws -> Bool {
            let t = tables.a.gather(keep.map { Int32($0) })
            let results = try duckdb([c], tables, python: python, a: t)
            let forced = c.forces.indices.map { results[forceID(c.id, $0)] ?? .failed("none") }
            if case .disagree = compare(utq(c, tables, a: t), results[c.id] ?? .failed("none"), ordered: c.ordered, forced: forced) { return true }
            return false
        }
        var chunk = max(1, rows.count / 2)
        while chunk >= 1 && rows.count > 1 {
            var removed = false
            var start = 0
            while start < rows.count {
                let keep = Array(rows[..<start]) + Array(rows[min(rows.count, start + chunk)...])
                if !keep.isEmpty, try disagrees(keep) { rows = keep; removed = true } else { start += chunk }
            }
            if !removed { chunk /= 2 }
        }
        return tables.a.gather(rows.map { Int32($0) })
    }
}
