import Foundation
import Testing
@testable import UTQCore

/// The oracle for files: random text saved by utq in every format is read back the same by
/// utq and by DuckDB, and the same text written by DuckDB is read the same by utq; tables
/// whose names collide (a header that repeats a name in any case, a join of tables with the
/// same columns) keep every value in its place under a name of its own. UTQ_ORACLE_SEED and
/// UTQ_ORACLE_CASES choose the cases, as for the pipelines.
@Suite(.serialized) struct OracleRoundTripTests {
    static let rounds = max(4, OracleTests.cases / 20)
    static let formats: [(ext: String, duckRead: String, duckWrite: String)] = [
        ("csv", "read_csv('%@', header = true, types = %@, delim = ',', quote = '\"', escape = '\"')", "(HEADER, DELIMITER ',')"),
        ("tsv", "read_csv('%@', header = true, types = %@, delim = '\\t', quote = '\"', escape = '\"')", "(HEADER, DELIMITER '\\t')"),
        ("json", "read_json('%@', format = 'array', columns = %@)", "(FORMAT JSON, ARRAY true)"),
        ("ndjson", "read_json('%@', format = 'newline_delimited', columns = %@)", "(FORMAT JSON)"),
    ]
    static let textColumns = "{'id': 'BIGINT', 'txt': 'VARCHAR'}"

    /// Text made of what files find hard: separators, quotes, line breaks of every kind,
    /// backslashes, spaces at the ends, words that look like numbers, nulls or times.
    static func text(_ g: inout OracleRandom) -> String {
        let pieces = ["a", "Bike", "x y", ",", ";", "\"", "'", "\t", "\n", "\r\n", "\r", "\\", "\\t", "\\n", " ", "  ",
                      "=", "+1", "-", "@", "#", "|", "<b>", "&amp;", "é", "Straße", "😀", "\u{2028}", "\u{01}",
                      "007", "1e5", "NaN", "null", "NULL", "true", "2021-03-28", "08:15", "0x1F", "{}", "[1]"]
        var s = ""
        for _ in 0..<g.int(1...6) { s += g.pick(pieces) }
        return s
    }

    struct Round {
        var texts: [String?]
        var folder: String
        var original: String { folder + "/original.ndjson" }
        func mine(_ ext: String) -> String { folder + "/utq.\(ext)" }
        func theirs(_ ext: String) -> String { folder + "/duckdb.\(ext)" }
    }

    @Test(arguments: OracleTests.seeds)
    func randomTextSurvivesEveryFormatInBothEngines(_ seed: UInt64) throws {
        let python = try #require(Oracle.python(), "the oracle needs Python with duckdb: make oracle-deps installs it")
        var g = OracleRandom(seed: seed &+ 0x5EED)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("utq-roundtrip-\(getpid())-\(seed)").path
        var rounds: [Round] = []
        var sql: [Int: String] = [:]
        for k in 0..<Self.rounds {
            let n = g.int(1...30)
            // One word that is text in any reading, so the column stays text.
            var texts: [String?] = ["word"]
            for _ in 1..<n { texts.append(g.chance(0.1) ? nil : Self.text(&g)) }
            let round = Round(texts: texts, folder: base + "/\(k)")
            try FileManager.default.createDirectory(atPath: round.folder, withIntermediateDirectories: true)
            // The original, written by Foundation: neither engine's writer.
            let lines = try texts.enumerated().map { i, t -> String in
                let object: [String: Any] = ["id": i + 1, "txt": t.map { $0 as Any } ?? NSNull()]
                return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: round.original, atomically: true, encoding: .utf8)
            // utq saves it in each format.
            let s = makeSession()
            try s.table("load \(round.original) as t\ncount")
            for f in Self.formats { try s.table("t | save \(round.mine(f.ext))\ncount") }
            rounds.append(round)
            // DuckDB reads the original and each of utq's files, and writes its own.
            let source = String(format: Self.formats[3].duckRead, round.original, Self.textColumns)
            sql[k * 100] = "SELECT * FROM \(source) ORDER BY id"
            for (j, f) in Self.formats.enumerated() {
                sql[k * 100 + 1 + j] = "SELECT * FROM " + String(format: f.duckRead, round.mine(f.ext), Self.textColumns) + " ORDER BY id"
                sql[k * 100 + 50 + j] = "COPY (SELECT * FROM \(source) ORDER BY id) TO '\(round.theirs(f.ext))' \(f.duckWrite)"
            }
        }
        let results = try Oracle.duckdb(sql: sql, python: python)
        for (k, round) in rounds.enumerated() {
            let expected = round.texts.map { $0.map(Oracle.Cell.text) ?? .null }
            func texts(_ outcome: Oracle.Outcome?) -> [Oracle.Cell]? {
                guard case .rows(let rows)? = outcome else { return nil }
                return rows.map { $0.count > 1 ? $0[1] : .null }
            }
            #expect(texts(results[k * 100]) == expected, "DuckDB reads the original of round \(k) as written")
            for (j, f) in Self.formats.enumerated() {
                if let got = texts(results[k * 100 + 1 + j]), got != expected {
                    let i = Array(zip(got, expected)).firstIndex { $0 != $1 } ?? min(got.count, expected.count)
                    Issue.record("seed \(seed) round \(k): DuckDB reads utq's \(f.ext) differently at id \(i + 1): \(i < got.count ? "\(got[i])" : "nothing"), written \(i < expected.count ? "\(expected[i])" : "nothing")")
                } else if case .failed(let why)? = results[k * 100 + 1 + j] {
                    Issue.record("seed \(seed) round \(k): DuckDB cannot read utq's \(f.ext): \(why)")
                }
                if case .failed(let why)? = results[k * 100 + 50 + j] { Issue.record("DuckDB could not write \(f.ext): \(why)") }
                for (who, path) in [("utq", round.mine(f.ext)), ("DuckDB", round.theirs(f.ext))] {
                    // utq trims spaces around a cell that is not in quotes (surveys are typed
                    // with them: "Amir " is Amir); its own writer quotes such text, DuckDB's
                    // does not always, so from DuckDB's CSV and TSV that text comes trimmed.
                    var expected = expected
                    if who == "DuckDB" && f.ext.hasSuffix("sv") {
                        let fields = try Self.fields(path, delimiter: f.ext == "csv" ? "," : "\t")
                        #expect(fields.map { $0.text.isEmpty ? Oracle.Cell.null : .text($0.text) } == expected, "a plain reading of DuckDB's \(f.ext)")
                        expected = fields.map { field -> Oracle.Cell in
                            let text = field.quoted ? field.text : String(field.text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
                            return text.isEmpty ? .null : .text(text)
                        }
                    }
                    let s = makeSession()
                    let back = try s.table("load \(path) as back\nback | sort id")
                    let got = back.column("txt").map { c in (0..<back.rowCount).map { Oracle.cell(c.value(at: $0)) } }
                    if got != expected {
                        let i = got.map { g in Array(zip(g, expected)).firstIndex { $0 != $1 } ?? min(g.count, expected.count) } ?? 0
                        Issue.record("seed \(seed) round \(k): utq reads \(who)'s \(f.ext) differently at id \(i + 1): \(got.map { i < $0.count ? "\($0[i])" : "nothing" } ?? "no column"), written \(i < expected.count ? "\(expected[i])" : "nothing")")
                    }
                }
            }
        }
        if ProcessInfo.processInfo.environment["UTQ_KEEP"] == nil { try? FileManager.default.removeItem(atPath: base) }
    }

    /// The second cells of a CSV file's records after the header, and whether each was in
    /// quotes: RFC 4180 read plainly, to know what DuckDB quoted.
    static func fields(_ path: String, delimiter: Character) throws -> [(text: String, quoted: Bool)] {
        let text = Array(try String(contentsOfFile: path, encoding: .utf8).unicodeScalars)
        var records: [[(text: String, quoted: Bool)]] = [[]]
        var i = 0, cell = "", quoted = false
        func end() { records[records.count - 1].append((cell, quoted)); cell = ""; quoted = false }
        while i < text.count {
            let c = text[i]
            if c == "\"" && cell.isEmpty && !quoted {
                quoted = true
                i += 1
                while i < text.count {
                    if text[i] == "\"" { if i + 1 < text.count && text[i + 1] == "\"" { cell.unicodeScalars.append("\""); i += 2; continue }; i += 1; break }
                    cell.unicodeScalars.append(text[i]); i += 1
                }
                continue
            }
            if Character(c) == delimiter { end() }
            else if c == "\n" || c == "\r" {
                end(); records.append([])
                if c == "\r" && i + 1 < text.count && text[i + 1] == "\n" { i += 1 }
            } else { cell.unicodeScalars.append(c) }
            i += 1
        }
        if !records[records.count - 1].isEmpty || !cell.isEmpty { end() }
        return records.dropFirst().filter { $0.count > 1 }.map { $0[1] }
    }

    /// A header that names a column twice (in any case) loads with a name for each column,
    /// the first keeping its own, and every value under the column it was in.
    @Test(arguments: OracleTests.seeds)
    func repeatedNamesKeepEveryValueInItsColumn(_ seed: UInt64) throws {
        let python = try #require(Oracle.python(), "the oracle needs Python with duckdb: make oracle-deps installs it")
        var g = OracleRandom(seed: seed &+ 0xD0B1E)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("utq-dupnames-\(getpid())-\(seed)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let pool = ["a", "a", "A", "a_2", "a_1", "a_3", "b", "B", "b_2", "k", "K_2", "k"]
        var headers: [[String]] = [], values: [[[Int]]] = []
        var sql: [Int: String] = [:]
        for k in 0..<Self.rounds {
            let width = g.int(2...8), n = g.int(1...6)
            let header = (0..<width).map { _ in g.pick(pool) }
            let rows = (0..<n).map { _ in (0..<width).map { _ in g.int(-99...99) } }
            let text = ([header.joined(separator: ",")] + rows.map { $0.map(String.init).joined(separator: ",") }).joined(separator: "\n") + "\n"
            try text.write(toFile: base + "/\(k).csv", atomically: true, encoding: .utf8)
            headers.append(header); values.append(rows)
            let columns = "{" + (0..<width).map { "'c\($0)': 'BIGINT'" }.joined(separator: ", ") + "}"
            sql[k] = "SELECT * FROM read_csv('\(base)/\(k).csv', header = false, skip = 1, columns = \(columns))"
        }
        let results = try Oracle.duckdb(sql: sql, python: python)
        for k in 0..<Self.rounds {
            let s = makeSession()
            let t = try s.table("load \(base)/\(k).csv as d\nd")
            let names = t.columnNames
            let where_ = "seed \(seed), header \(headers[k].joined(separator: ",")) loaded as \(names.joined(separator: ","))"
            #expect(Set(names.map { $0.lowercased() }).count == names.count, "\(where_): two columns share a name")
            var seen = Set<String>()
            for (j, written) in headers[k].enumerated() where seen.insert(written.lowercased()).inserted {
                #expect(names[j] == written, "\(where_): the first \(written) was renamed")
            }
            guard case .rows(let rows)? = results[k] else { Issue.record("DuckDB: \(String(describing: results[k]))"); continue }
            // Each name, asked for, is the column in its place in the file.
            for (j, name) in names.enumerated() {
                let column = try s.table("d | select `\(name)`").values(name).map(Oracle.cell)
                #expect(column == rows.map { $0[j] }, "\(where_): \(name) is not column \(j + 1)")
            }
        }
        try? FileManager.default.removeItem(atPath: base)
    }

    /// A join of two tables with the same columns: the right one's are named after their
    /// table, and hold the right table's values (as DuckDB's SELECT l.*, r.… gives them).
    @Test(arguments: OracleTests.seeds)
    func aJoinOfTablesWithTheSameColumnsKeepsBoth(_ seed: UInt64) throws {
        let python = try #require(Oracle.python(), "the oracle needs Python with duckdb: make oracle-deps installs it")
        var g = OracleRandom(seed: seed &+ 0x101)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("utq-joinnames-\(getpid())-\(seed)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        var sql: [Int: String] = [:]
        var kinds: [String] = []
        for k in 0..<Self.rounds {
            for (name, columns) in [("l", ["k", "s", "d", "e"]), ("r", ["k", "s", "d"])] {
                let n = g.int(0...8)
                let lines = (0..<n).map { _ in
                    columns.map { c -> String in
                        c == "k" ? (g.chance(0.1) ? "" : String(g.int(1...4))) : c == "s" ? g.pick(["x", "y", "Z", ""]) : String(g.int(-9...9))
                    }.joined(separator: ",")
                }
                try ([columns.joined(separator: ",")] + lines).joined(separator: "\n").appending("\n")
                    .write(toFile: base + "/\(name)\(k).csv", atomically: true, encoding: .utf8)
            }
            let kind = g.pick(["join", "left join"])
            kinds.append(kind)
            func read(_ n: String) -> String {
                let cols = n.hasPrefix("l") ? "{'k': 'BIGINT', 's': 'VARCHAR', 'd': 'BIGINT', 'e': 'BIGINT'}" : "{'k': 'BIGINT', 's': 'VARCHAR', 'd': 'BIGINT'}"
                return "read_csv('\(base)/\(n).csv', header = true, columns = \(cols))"
            }
            sql[k] = "SELECT l.k, l.s, l.d, l.e, r.s, r.d FROM \(read("l\(k)")) l \(kind.uppercased()) \(read("r\(k)")) r ON l.k = r.k"
        }
        let results = try Oracle.duckdb(sql: sql, python: python)
        for k in 0..<Self.rounds {
            let s = makeSession()
            try s.table("load \(base)/l\(k).csv as l\nload \(base)/r\(k).csv as r\ncount")
            let outcome: Oracle.Outcome
            do {
                let t = try s.table("l | \(kinds[k]) r on k | select k, s, d, e, r.s, r.d")
                outcome = .rows((0..<t.rowCount).map { i in t.columns.map { Oracle.cell($0.value(at: i)) } })
                #expect(t.columnNames == ["k", "s", "d", "e", "r.s", "r.d"])
            } catch { outcome = .failed("\(error)") }
            if case .disagree(let why) = Oracle.compare(outcome, results[k] ?? .failed("none"), ordered: false) {
                Issue.record("seed \(seed), round \(k), l | \(kinds[k]) r on k: \(why)")
            }
        }
        try? FileManager.default.removeItem(atPath: base)
    }
}

extension Oracle {
    /// DuckDB's answers to queries that read their own files (no tables made first).
    static func duckdb(sql: [Int: String], python: String) throws -> [Int: Outcome] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-oracle-files-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let spec: [String: Any] = ["zone": "UTC", "tables": [] as [Any],
                                   "cases": sql.keys.sorted().map { ["id": $0, "sql": sql[$0]!] }]
        return try runDuckDB(spec, in: dir, python: python)
    }
}
