import Testing
@testable import UTQCore

/// A text column's codes at rest in the narrowest width its dictionary allows
/// (DictionaryCodes): the width chosen, the codes kept, and every question that reads the
/// codes in a loop of their own width answering as the 32-bit codes do.
@Suite struct DictionaryCodesTests {
    @Test func aDictionaryGetsTheNarrowestWidthThatHoldsIt() {
        for (values, width) in [(1, 1), (256, 1), (257, 2), (65_536, 2), (65_537, 4)] {
            let codes = (0..<(values + 5)).map { UInt32(($0 &* 7_919) % values) }
            let s = StringStorage(codes: codes, dictionary: (0..<values).map { "v\($0)" })
            #expect(s.codes.width == width, "\(values) values")
            #expect(Array(s.codes) == codes, "\(values) values")
            #expect(s.codes.wide == codes, "\(values) values")
        }
        // Past 2^18 codes each core narrows and widens its share.
        let many = (0..<((1 << 18) + 3)).map { UInt32($0 % 300) }
        let s = DictionaryCodes(many, values: 300)
        #expect(s.width == 2 && s.wide == many)
    }

    @Test func aLoadKeepsItsTextInTheNarrowestWidth() throws {
        var text = "legend,stop,trip\n"
        for i in 0..<70_000 { text += "L\(i % 5),s\(i % 300),t\(i)\n" }
        let s = makeSession()
        let t = try s.table("load \(try temporaryFile("widths.csv", text)) as t; t")
        let widths = t.columns.map { c -> Int in
            guard case .string(let s) = c.storage else { return 0 }
            return s.codes.width
        }
        #expect(widths == [1, 2, 4])
        #expect(try s.table("t | count by legend").strings("count") == ["14000", "14000", "14000", "14000", "14000"])
        #expect(try s.table("t | where stop = \"s299\" | count").strings("count") == ["233"])
    }

    /// The same column kept at each width gives the same answers: counts by it (one key with
    /// and without nulls, two keys), filters, `in`, `count distinct`, sorts (whole and the
    /// first rows), text functions, a join and a mean by it.
    @Test func everyQuestionAnswersAlikeAtEveryWidth() throws {
        let rows = (1 << 18) + 1_001  // past the size where the cores share a pass
        let values = (0..<200).map { "v\($0)" }
        let u32 = (0..<rows).map { UInt32(($0 &* 31 &+ $0 / 7) % values.count) }
        let n32 = (0..<rows).map { UInt32(($0 &* 17) % values.count) }
        var valid = Bitmap(count: rows, value: true)
        for i in stride(from: 3, to: rows, by: 11) { valid[i] = false }
        let questions = [
            "t | count by u", "t | count by s", "t | count by u, s",
            "t | where u = \"v7\" | count", "t | where s >= \"v50\" | count", "t | where \"v9\" < u | sum k",
            "t | where s in (\"v1\", \"v3\", \"v150\") | count", "t | count distinct s", "t | count distinct u",
            "t | sort u desc, k | limit 7", "t | sort s, k | limit 3", "t | sort s desc, u, k | limit 20",
            "t | let l = length(u) | sum l", "t | let w = upper(s) | count by w | sort count desc, w | limit 5",
            "t | join r on u | count", "t | join r on u | sum z", "t | avg k by s | sort s | limit 9",
            "t | where u starts with \"v1\" | count", "t | where s contains \"5\" | count",
        ]
        var answers: [[String]] = []
        for width in [4, 2, 1] {
            func lanes(_ c: [UInt32]) -> DictionaryCodes {
                switch width {
                case 1: return DictionaryCodes(lanes: .u8(c.map { UInt8($0) }))
                case 2: return DictionaryCodes(lanes: .u16(c.map { UInt16($0) }))
                default: return DictionaryCodes(lanes: .u32(c))
                }
            }
            let t = Table(name: "t", columns: [
                Column(name: "k", storage: .int((0..<rows).map { Int64($0) })),
                Column(name: "u", storage: .string(StringStorage(codes: lanes(u32), dictionary: values))),
                Column(name: "s", storage: .string(StringStorage(codes: lanes(n32), dictionary: values)), validity: valid),
            ])
            let rightCodes = (0..<150).map { UInt32(($0 * 3) % values.count) }
            let r = Table(name: "r", columns: [
                Column(name: "u", storage: .string(StringStorage(codes: lanes(rightCodes), dictionary: values))),
                Column(name: "z", storage: .int((0..<150).map { Int64($0) })),
            ])
            let s = makeSession()
            s.workspace.put([t, r], makeCurrent: false)
            answers.append(try questions.map { q in
                let table = try s.table(q)
                return table.columns.map { c in
                    c.name + ": " + (0..<c.count).map { String(describing: c.value(at: $0)) }.joined(separator: ",")
                }.joined(separator: " | ")
            })
        }
        for (q, (a, b)) in zip(questions, zip(answers[0], answers[1])) { #expect(a == b, "\(q): 2 bytes") }
        for (q, (a, b)) in zip(questions, zip(answers[0], answers[2])) { #expect(a == b, "\(q): 1 byte") }
        // And the counts by one key are the rows' own.
        var counts = [Int](repeating: 0, count: values.count)
        for c in u32 { counts[Int(c)] += 1 }
        #expect(answers[2][0].hasSuffix("count: " + counts.map { String(describing: Value.int(Int64($0))) }.joined(separator: ",")))
    }

    @Test func compactingAndRemappingKeepTheValues() {
        let values = (0..<300).map { "v\($0)" }
        let codes = (0..<5_000).map { UInt32($0 % 7 == 0 ? 299 : $0 % 3) }
        let s = StringStorage(codes: codes, dictionary: values)
        #expect(s.codes.width == 2)
        let compact = s.compacted()
        // Four values left: a byte a row, and every row still its value.
        #expect(compact.dictionary == ["v0", "v1", "v2", "v299"] && compact.codes.width == 1)
        #expect((0..<codes.count).allSatisfy { compact.dictionary[Int(compact.codes[$0])] == values[Int(codes[$0])] })
        #expect(s.codes.through(values.map { $0.count }) == codes.map { values[Int($0)].count })
    }
}
