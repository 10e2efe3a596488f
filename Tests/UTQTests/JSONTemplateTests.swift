import Foundation
import Testing
@testable import UTQCore

/// The template reader (RecordTemplate) reads records shaped like the one before by a short
/// road; the general parser reads every record by the long one. On files whose records change
/// shape, kind and spacing in every way a template must notice, both must build the same
/// table, cell for cell and bit for bit, in one part or several and with any chunk size.
@Suite struct JSONTemplateTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }

    /// Records that mostly share one shape, and now and then break it.
    static func records(_ count: Int, seed: UInt64, spacing: Int) -> [String] {
        var g = Generator(state: seed)
        let texts = ["Walking", "Bike", "", "tab\\there", "quote \\\"x\\\"", "é ✓ 😀", "\\u00e6", "Sitting", "null", "123"]
        let numbers = ["0", "-0", "12", "-7", "3.25", "-0.5", "1e3", "007", "2.50", "123456789012345678901", "9007199254740993", "0.1234567890123456"]
        var out: [String] = []
        for i in 0..<count {
            var members: [(String, String)] = []
            let hour = 10 + g.next(12)
            members.append(("time", "\"2017-03-26T\(hour):\(10 + g.next(50)):00+0\(hour < 12 ? 1 : 2):00\""))
            members.append(("legend", "\"\(texts[g.next(100) < 90 ? g.next(2) + (i % 7 == 0 ? 7 : 0) : g.next(texts.count)])\""))
            members.append(("x", g.next(100) < 95 ? "\(g.next(1000)).\(g.next(10))" : numbers[g.next(numbers.count)]))
            members.append(("n", g.next(100) < 97 ? "\(g.next(100))" : numbers[g.next(numbers.count)]))
            members.append(("angle", g.next(10) < 3 ? "null" : "\(g.next(360) - 180).\(g.next(10))"))
            members.append(("ok", ["true", "false", "null"][g.next(3)]))
            members.append(("on", ["true", "false", "true", "null"][g.next(4)]))
            members.append(("note", g.next(10) < 8 ? "\"\"" : "\"\(texts[g.next(texts.count)])\""))
            // The ways a record leaves the template.
            switch g.next(200) {
            case 0: members.remove(at: g.next(members.count))                        // a member missing
            case 1: members.append(("extra", "\(g.next(9))"))                         // one more
            case 2: members.swapAt(0, 1 + g.next(members.count - 1))                   // another order
            case 3: members[2].1 = "{\"a\": 1, \"b\": [1, 2]}"                         // a nested object
            case 4: members[7].1 = "[1, {\"k\": \"v\"}]"                               // an array
            case 5: members[1].0 = "leg\\u0065nd"                                      // an escaped name
            case 6: members.append(("legend", "\"again\""))                            // a repeated name
            case 7: members[0].1 = "null"                                               // no time
            case 8: members[5].1 = "\"yes\""                                           // a flag as text
            case 9: members[3].1 = "\"42\""                                            // a number as text
            case 10: members[7].1 = g.next(2) == 0 ? "17" : "true"                    // text as a number or flag
            case 11: members.append(("late", "\"2017-04-0\(1 + g.next(9))T08:00:00Z\""))  // a column first seen here
            default: break
            }
            // Now and then a record spaced otherwise than the file's others.
            let spaced = g.next(40) == 0 ? (spacing + 1 + g.next(2)) % 3 : spacing
            let colon = [":", ": ", " : "][spaced]
            let comma = [",", ", ", ",\n    "][spaced]
            let body = members.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: comma)
            out.append(spaced == 2 ? "{\n    " + body + "\n}" : "{" + body + "}")
        }
        return out
    }

    static func write(_ records: [String], lines: Bool, spacing: Int) throws -> String {
        let text = lines ? records.joined(separator: "\n") + "\n"
            : "[" + records.joined(separator: spacing == 0 ? "," : ",\n") + "]\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("template-\(UUID().uuidString).\(lines ? "ndjson" : "json")").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The first cell where two tables differ, numbers compared by their bits.
    static func difference(_ a: Table, _ b: Table) -> String? {
        if a.columnNames != b.columnNames { return "columns \(a.columnNames) vs \(b.columnNames)" }
        if a.rowCount != b.rowCount { return "rows \(a.rowCount) vs \(b.rowCount)" }
        for (x, y) in zip(a.columns, b.columns) {
            if x.type != y.type { return "\(x.name): \(x.type) vs \(y.type)" }
            for r in 0..<a.rowCount {
                let (u, v) = (x.value(at: r), y.value(at: r))
                if case .double(let p) = u, case .double(let q) = v, p.bitPattern == q.bitPattern { continue }
                if u != v { return "\(x.name) row \(r): \(u) vs \(v)" }
            }
        }
        return nil
    }

    @Test(arguments: [(true, 0), (true, 1), (false, 0), (false, 2)])
    func templatesReadWhatTheGeneralParserReads(lines: Bool, spacing: Int) throws {
        for seed: UInt64 in [1, 2, 3] {
            let path = try Self.write(Self.records(3000, seed: seed, spacing: spacing), lines: lines, spacing: spacing)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reference = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1, cuts: nil, templates: false)
            #expect(reference.templateRecords == 0)
            for (parts, chunk) in [(1, 1 << 20), (1, 4096), (2, 777), (3, 1 << 16)] {
                let t = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, chunkSize: chunk, parts: parts, cuts: nil)
                #expect(Self.difference(reference.table, t.table) == nil, "seed \(seed), \(parts) parts, chunk \(chunk)")
                #expect(t.table.column("time")?.type == .timestamp && t.table.column("on")?.type == .bool)
                #expect(t.warnings.map(\.message) == reference.warnings.map(\.message))
                // Most records went the short road, or this test would not test it.
                #expect(t.templateRecords > 3000 * 3 / 4, "seed \(seed): \(t.templateRecords) records by template")
            }
        }
    }

    /// A column whose type a later record changes: a whole number turning into a fraction
    /// widens it in place; text among numbers makes the load read the file again. Either way
    /// the values are those the general parser reads.
    @Test func typesChangedPastTheSampleAreReadAlike() throws {
        var records = (0..<6000).map { #"{"k": \#($0), "v": \#($0 % 7), "s": "a\#($0 % 3)"}"# }
        records[4500] = #"{"k": 4500, "v": 2.5, "s": "a0"}"#
        records[5200] = #"{"k": 5200, "v": 3, "s": 12}"#
        records[5900] = #"{"k": 5900, "v": "many", "s": "a1"}"#
        let path = try Self.write(records, lines: true, spacing: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1, cuts: nil, templates: false)
        let t = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, chunkSize: 1000, parts: 2, cuts: nil)
        #expect(Self.difference(reference.table, t.table) == nil)
        #expect(t.table.column("v")?.type == .string)
        #expect(t.table.column("s")?.type == .string)
        #expect(t.table.strings("s")[5200] == "12")
        #expect(t.templateRecords > 5000)
        // The load says which column turned to text, how many cells did it and the first;
        // not for a column of text that met a number.
        let said = t.warnings.map(\.message)
        #expect(said.contains(#"v is kept as text: 1 of 6,000 cells is not a number, the first "many" (row 5,901); number(v) reads the others as numbers"#), "\(said)")
        #expect(!said.contains { $0.hasPrefix("s is kept") })
        #expect(reference.warnings.map(\.message) == said)
    }

    /// Records that change shape every time are left to the general parser after a while,
    /// and the template is tried again later: a file that settles into one shape is read by
    /// template from there on.
    @Test func aTemplateRestsWhereRecordsKeepChangingAndComesBack() throws {
        var records: [String] = []
        for i in 0..<8000 { records.append(#"{"m\#(i % 50)": \#(i)}"#) }
        for i in 0..<20000 { records.append(#"{"a": \#(i), "b": "x"}"#) }
        let path = try Self.write(records, lines: true, spacing: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1, cuts: nil, templates: false)
        let t = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1, cuts: nil)
        #expect(Self.difference(reference.table, t.table) == nil)
        #expect(t.templateRecords > 15000)
    }
}
