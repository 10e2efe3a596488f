import Foundation
import Testing
@testable import UTQCore

/// Summaries and joins by one whole-number column of many ids: `count by` counts into a table
/// indexed by the id (CountByIds), the other summaries number the groups by the rank of the id
/// among those present (DenseIntGroups), in parts on the cores. The same rows, keys and answers
/// as the general path, nulls last.
@Suite struct ManyIdsTests {
    /// 300,000 rows (parts on every core), ids from -5,000 over a span with gaps, scattered;
    /// on every thirteenth row no id.
    static let session: (Session, [Int: Int], Int) = {
        var text = "k,x\n"
        var counts: [Int: Int] = [:], nulls = 0
        for i in 0..<300_000 {
            if i % 13 == 5 { text += ",\(i % 7)\n"; nulls += 1; continue }
            let k = (i &* 7919 % 150_001) * 2 - 5_000
            counts[k, default: 0] += 1
            text += "\(k),\(i % 7)\n"
        }
        let s = makeSession()
        _ = try! s.table("load \(try! temporaryFile("ids.csv", text)) as t; t | limit 1")
        return (s, counts, nulls)
    }()

    @Test func countsEveryIdInKeyOrderWithNullsLast() throws {
        let (s, expected, nulls) = Self.session
        let t = try s.table("t | count by k")
        let keys = expected.keys.sorted()
        #expect(t.rowCount == keys.count + 1)
        let (k, n) = (t.strings("k"), t.strings("count"))
        let wrong = zip(keys.indices, keys).filter { i, key in k[i] != String(key) || n[i] != String(expected[key]!) }
        #expect(wrong.isEmpty, "\(wrong.count) rows wrong, the first \(wrong.first.map { "\($0.1): \(k[$0.0]) \(n[$0.0])" } ?? "")")
        #expect(k.last == "null" && n.last == String(nulls), "nulls last: \(k.last ?? "-") \(n.last ?? "-")")
    }

    @Test func equalsTheGeneralPath() throws {
        let (s, _, _) = Self.session
        // A second key, the same on every row, takes the general path (groups numbered as they
        // first appear, then sorted by key).
        let fast = try s.table("t | count as n by k")
        let general = try s.table("t | let one = 1 | count as n by k, one")
        #expect(fast.rowCount == general.rowCount)
        #expect(fast.strings("k") == general.strings("k"), "keys differ")
        #expect(fast.strings("n") == general.strings("n"), "counts differ")
        #expect(fast.columns.map(\.type) == [general.columns[0].type, general.columns[2].type])
        // Several counts, a filter before, and the path chosen.
        let two = try s.table("t | where x > 2 | count, count as n by k")
        let twoGeneral = try s.table("t | where x > 2 | let one = 1 | count, count as n by k, one")
        #expect(two.strings("count") == twoGeneral.strings("count"), "counts differ")
        #expect(two.strings("n") == twoGeneral.strings("n"), "counts differ")
        let table = try s.table("t")
        let key = NamedExpr(name: "k", expr: .column(0, Field(name: "k", type: .int)))
        #expect(CountByIds(keys: [key], table: table) != nil)
    }

    /// Ids counted in a byte each (the way for spans past the cache, tried here on fewer ids):
    /// the same ids, counts and nulls as whole counts.
    @Test func bytesCountAsWholeCountsDo() throws {
        let (s, expected, nulls) = Self.session
        let table = try s.table("t")
        var ids = try #require(CountByIds(keys: [NamedExpr(name: "k", expr: .column(0, Field(name: "k", type: .int)))], table: table))
        #expect(!ids.narrow, "300,000 ids span less than a table past the cache")
        func values(_ c: Column) -> [Int64] { if case .int(let a) = c.storage { return a }; return [] }
        let whole = try ids.run(counts: ["count"], cancel: nil)
        ids.narrow = true
        let bytes = try ids.run(counts: ["count"], cancel: nil)
        let sameKeys = values(bytes[0]) == values(whole[0]), sameCounts = values(bytes[1]) == values(whole[1])
        #expect(sameKeys && sameCounts && bytes[0].validity == whole[0].validity)
        #expect(values(bytes[1]).count == expected.count + 1 && values(bytes[1]).last == Int64(nulls))
    }

    /// Ids of many rows in a byte each: one id on three rows in four (its byte wraps hundreds
    /// of times, on every core), ids of exactly 256 and 255 rows (a wrap that ends at zero, and
    /// none), the rest spread thin; each id's count is its rows, whatever the cores' shares.
    @Test func bytesThatWrapCountEveryRow() throws {
        var text = "k\n", expected: [Int: Int] = [:]
        func add(_ k: Int) { text += "\(k)\n"; expected[k, default: 0] += 1 }
        for i in 0..<120_000 { add(i % 4 == 3 ? 5_000 + i &* 7919 % 90_000 : 17) }
        for _ in 0..<256 { add(40_000) }
        for _ in 0..<255 { add(41_000) }
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("heavy.csv", text)) as h; h | limit 1")
        var ids = try #require(CountByIds(keys: [NamedExpr(name: "k", expr: .column(0, Field(name: "k", type: .int)))], table: try s.table("h")))
        ids.narrow = true
        let out = try ids.run(counts: ["count"], cancel: nil)
        guard case .int(let keys) = out[0].storage, case .int(let counts) = out[1].storage else { Issue.record("not whole numbers"); return }
        let got = Dictionary(uniqueKeysWithValues: zip(keys.map { Int($0) }, counts.map { Int($0) }))
        #expect(keys == keys.sorted() && keys.count == expected.count)
        #expect(got[17] == expected[17] && got[40_000] == 256 && got[41_000] == 255)
        let wrong = expected.filter { got[$0.key] != $0.value }
        #expect(wrong.isEmpty, "\(wrong.count) ids counted wrong, the first \(wrong.first.map { "\($0.key): \(got[$0.key] ?? 0) of \($0.value)" } ?? "")")
    }

    /// One core's rows in bytes: each wrap is recorded once, at its id, and the bytes hold
    /// what is left over; nulls are counted, not counted as ids.
    @Test func aWrapIsRecordedAtItsId() {
        let values: [Int64] = Array(repeating: 103, count: 600) + [101, 102, 101] + Array(repeating: 100, count: 256)
        var valid = Bitmap(count: values.count, value: true)
        valid[0] = false
        valid[601] = false
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
        defer { t.deallocate() }
        t.initialize(repeating: 0, count: 4)
        var wraps: [UInt32] = []
        let nulls = values.withUnsafeBufferPointer {
            CountByIds.count($0, valid, from: 0, to: $0.count, low: 100, into: t, wraps: &wraps, cancel: nil)
        }
        #expect(nulls == 2 && wraps == [3, 3, 0])
        #expect((0..<4).map { t[$0] } == [0, 2, 0, 87], "599 rows of 103 are 2 × 256 + 87")
    }

    /// A small span is counted by slots (CountByCodes); ids are told apart from it without
    /// reading every row for their least and greatest.
    @Test func smallSpansAreSlotsAndIdsAreNot() {
        #expect(CountByCodes.span([7, 3, 9, 3], under: 4096)! == (3, 9))
        #expect(CountByCodes.span([5, 4101], under: 4096) == nil)
        #expect(CountByCodes.span([5, 4100], under: 4096)! == (5, 4100), "4,095 apart is small")
        #expect(CountByCodes.span([Int64.min, Int64.max], under: 4096) == nil, "a span past 64 bits is not small")
        #expect(CountByCodes.span([], under: 4096) == nil)
    }

    @Test func leavesWideSpansToTheGeneralPath() throws {
        // Three ids a trillion apart: no table indexed by the id.
        let s = makeSession()
        let t = try s.table("load \(try temporaryFile("far.csv", "k\n1\n1000000000000\n-1000000000000\n1\n")) as f; f | count by k")
        #expect(t.strings("k") == ["-1000000000000", "1", "1000000000000"])
        #expect(t.strings("count") == ["1", "2", "1"])
        let f = try s.table("f")
        #expect(CountByIds(keys: [NamedExpr(name: "k", expr: .column(0, Field(name: "k", type: .int)))], table: f) == nil)
    }

    @Test func summariesEqualTheGeneralPath() throws {
        let (s, _, _) = Self.session
        // A second key, the same on every row, takes the general path (groups numbered as they
        // first appear, then sorted by key).
        let aggregates = "avg x, sum x, count distinct x, first x, last x, median x, count"
        let dense = try s.table("t | \(aggregates) by k")
        let general = try s.table("t | let one = 1 | \(aggregates) by k, one")
        #expect(dense.rowCount == general.rowCount)
        for name in ["k", "avg_x", "sum_x", "distinct_x", "first_x", "last_x", "median_x", "count"] {
            #expect(dense.strings(name) == general.strings(name), "\(name) differs")
        }
        let table = try s.table("t")
        #expect(try DenseIntGroups(table.columns[0], rows: table.rowCount, cancel: nil) != nil)
        // Ids in a narrow span, or too few rows, keep the general numbering.
        #expect(try DenseIntGroups(table.columns[1], rows: table.rowCount, cancel: nil) == nil)
    }

    /// Each value of a column as its bits (nil for a null), to compare answers to the last bit.
    static func bits(_ t: Table, _ name: String) -> [UInt64?] {
        guard let c = t.columns.first(where: { $0.name == name }) else { return [] }
        switch c.storage {
        case .double(let a): return a.indices.map { c.validity?[$0] == false ? nil : a[$0].bitPattern }
        case .int(let a), .duration(let a), .timestamp(let a): return a.indices.map { c.validity?[$0] == false ? nil : UInt64(bitPattern: a[$0]) }
        default: return []
        }
    }

    /// Sums, means and counts of a number column by many ids (SummaryByIds): each id's values
    /// added in row order as the general path adds them, so the same doubles to the last bit;
    /// nulls among the ids (a last group) and among the values (not counted), blocks of rows
    /// smaller than the table so the rows go in several blocks.
    @Test func sumsAndMeansByIdsAreTheGeneralPathsToTheBit() throws {
        var text = "k,v\n"
        for i in 0..<300_000 {
            let k = i % 13 == 5 ? "" : String((i &* 7919 % 150_001) * 2 - 5_000)
            // A value repeated whole in some groups: their mean is that value.
            let v = i % 11 == 3 ? "" : i % 5 == 0 ? "7296808.4" : String(Double((i &* 31) % 100_000) / 7)
            text += "\(k),\(v)\n"
        }
        // Three of one value whose sum over three is a neighbour of it: the mean is the value.
        text += "300001,7296808.4\n300001,7296808.4\n300001,7296808.4\n"
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("ids-values.csv", text)) as t; t | limit 1")
        let aggregates = "count, sum v as total, avg v as mean, count v as n"
        let fast = try s.table("t | \(aggregates) by k")
        let general = try s.table("t | let one = 1 | \(aggregates) by k, one")
        #expect(fast.rowCount == general.rowCount && fast.rowCount > 100_000)
        #expect(fast.strings("k") == general.strings("k") && fast.strings("k").last == "null")
        for name in ["count", "total", "mean", "n"] {
            let (a, b) = (Self.bits(fast, name), Self.bits(general, name))
            let wrong = a.indices.filter { $0 >= b.count || a[$0] != b[$0] }
            #expect(!a.isEmpty && wrong.isEmpty, "\(name): \(wrong.count) groups differ")
        }
        // The way taken, with blocks of fewer rows than the table.
        let table = try s.table("t")
        let key = NamedExpr(name: "k", expr: .column(0, Field(name: "k", type: .int)))
        let mean = BoundAggregate(function: .avg, argument: .column(1, Field(name: "v", type: .double)), distinct: false, name: "mean", type: .double)
        let byIds = try #require(SummaryByIds(keys: [key], aggregates: [mean], table: table))
        let blocks = try byIds.run(cancel: nil, blockRows: 40_000)
        let byBlocks = Table(name: "m", columns: blocks)
        let (byBlock, byGeneral) = (Self.bits(byBlocks, "mean"), Self.bits(general, "mean"))
        #expect(byBlock.count == byGeneral.count && zip(byBlock, byGeneral).allSatisfy { $0 == $1 },
                "\(zip(byBlock, byGeneral).filter { $0 != $1 }.count) means differ")
        let repeated = try #require(byBlocks.strings("k").firstIndex(of: "300001"))
        #expect(Self.bits(byBlocks, "mean")[repeated] == (7296808.4).bitPattern)
        #expect(byBlocks.strings("k") == general.strings("k"), "the ids present, then the null")
        // Two states a cache line: a table of states read from memory at every block.
        #expect(MemoryLayout<SummaryByIds.State>.stride == 32)
        // A text column summed, or a median, keeps the general path.
        let median = BoundAggregate(function: .median, argument: mean.argument, distinct: false, name: "m", type: .double)
        #expect(SummaryByIds(keys: [key], aggregates: [median], table: table) == nil)
    }

    /// Sums and means of whole numbers, durations and times by many ids: added exactly in 128
    /// bits as the general path adds them, so the same answers to the bit (means of sums past
    /// 2^53 too); a sum past 64 bits is refused with the general path's message.
    @Test func wholeSumsAndMeansByIdsAreTheGeneralPaths() throws {
        var text = "k,w,d,t,big\n"
        for i in 0..<300_000 {
            let k = i % 13 == 5 ? "" : String((i &* 7919 % 150_001) * 2 - 5_000)
            // Large and negative whole numbers: a group's sum passes 2^53, so its mean rounds (an
            // id has two rows; the rows without one, many, add small numbers).
            let w = i % 11 == 3 ? "" : String((i &* 104_729 % 2_000_003 - 1_000_000) * (i % 3 == 0 && !k.isEmpty ? 4_000_000_000_003 : 1))
            let d = i % 17 == 4 ? "" : String(format: "%d:%02d:%02d", i % 30, i % 60, (i / 60) % 60)
            let t = i % 19 == 6 ? "" : String(format: "2024-%02d-%02dT%02d:%02d:%02dZ", 1 + i % 12, 1 + i % 28, i % 24, i % 60, (i / 7) % 60)
            text += "\(k),\(w),\(d),\(t),\(i % 2 == 0 ? "4611686018427387904" : "1")\n"
        }
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("ids-whole.csv", text)) as t; t | limit 1")
        let table = try s.table("t")
        #expect(table.columns.map(\.type) == [.int, .int, .duration, .timestamp, .int])
        let aggregates = "count, sum w as total, avg w as mean, count w as n, sum d as spent, avg d as typical, avg t as middle"
        let fast = try s.table("t | \(aggregates) by k")
        let general = try s.table("t | let one = 1 | \(aggregates) by k, one")
        #expect(fast.rowCount == general.rowCount && fast.rowCount > 100_000)
        #expect(fast.strings("k") == general.strings("k") && fast.strings("k").last == "null")
        for name in ["count", "total", "mean", "n", "spent", "typical", "middle"] {
            let (a, b) = (Self.bits(fast, name), Self.bits(general, name))
            let wrong = a.indices.filter { $0 >= b.count || a[$0] != b[$0] }
            #expect(!a.isEmpty && wrong.isEmpty, "\(name): \(wrong.count) groups differ")
            #expect(fast.columns.first { $0.name == name }?.type == general.columns.first { $0.name == name }?.type, "\(name)'s type")
        }
        // Some sums pass 2^53, where a double of the sum over the count would round otherwise.
        let totals = fast.columns.first { $0.name == "total" }
        if case .int(let m)? = totals?.storage { #expect(m.filter { $0.magnitude > 1 << 53 }.count > 10_000) } else { Issue.record("total is not whole") }
        // The way taken, with blocks of fewer rows than the table.
        let key = NamedExpr(name: "k", expr: .column(0, Field(name: "k", type: .int)))
        let mean = BoundAggregate(function: .avg, argument: .column(1, Field(name: "w", type: .int)), distinct: false, name: "mean", type: .double)
        let middle = BoundAggregate(function: .avg, argument: .column(3, Field(name: "t", type: .timestamp)), distinct: false, name: "middle", type: .timestamp)
        let byIds = try #require(SummaryByIds(keys: [key], aggregates: [mean, middle], table: table))
        let byBlocks = Table(name: "m", columns: try byIds.run(cancel: nil, blockRows: 40_000))
        #expect(Self.bits(byBlocks, "mean") == Self.bits(general, "mean") && Self.bits(byBlocks, "middle") == Self.bits(general, "middle"))
        // A time has a mean but no sum: that stays the binder's to refuse.
        let timeSum = BoundAggregate(function: .sum, argument: middle.argument, distinct: false, name: "s", type: .timestamp)
        #expect(SummaryByIds(keys: [key], aggregates: [timeSum], table: table) == nil)
        // Every other row holds 2^62: an id's sum passes 64 bits, found on both paths alike.
        var messages: [String] = []
        for query in ["t | sum big by k", "t | let one = 1 | sum big by k, one"] {
            do { _ = try s.table(query); Issue.record("\(query) gave a table") } catch {
                // The first line says what; the rest shows the query asked.
                messages.append(String("\(error)".split(separator: "\n").first ?? ""))
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1] && messages[0].contains("sum big"), "\(messages)")
    }

    /// A 128-bit sum over a count: the 64-bit way for sums that fit gives the 128-bit way's double.
    @Test func meansOfWholeSumsRoundAlike() {
        func wide(_ sum: Int128, _ count: Int) -> Double {
            let (q, r) = sum.quotientAndRemainder(dividingBy: Int128(count))
            return Double(q) + Double(r) / Double(count)
        }
        var generator = SystemRandomNumberGenerator()
        var sums: [Int128] = [0, 1, -1, 7, -7, 1 << 53, (1 << 53) + 1, -(1 << 53) - 3, Int128(Int64.max), Int128(Int64.min),
                              Int128(Int64.max) + 1, Int128(Int64.min) - 1, Int128(Int64.max) * 3]
        for _ in 0..<20_000 {
            let bits = Int.random(in: 1...64, using: &generator)
            sums.append(Int128(Int64.random(in: Int64.min...Int64.max, using: &generator) >> (64 - bits)))
        }
        for sum in sums {
            for count in [1, 2, 3, 7, 10, 1_000, 999_983, Int(UInt32.max)] {
                let (a, b) = (Accumulate.divide(sum, count), wide(sum, count))
                #expect(a.bitPattern == b.bitPattern, "\(sum) / \(count): \(a) against \(b)")
                if a.bitPattern != b.bitPattern { return }
            }
        }
    }

    /// A join of many rows on whole-number ids: ids repeated on the right, ids only one side
    /// has, nulls on both sides.
    @Test func joinsOnManyIdsMatchEveryPair() throws {
        let (s, expected, _) = Self.session
        // Right: ids 0, 3, 6, … of the left's span, every fifth twice, every seventh without an id.
        var text = "k,w\n"
        var rightRows: [Int: [Int]] = [:]
        for j in 0..<110_000 {
            if j % 7 == 2 { text += ",\(j)\n"; continue }
            let k = j * 3 - 5_000
            for _ in 0..<(j % 5 == 0 ? 2 : 1) {
                text += "\(k),\(j)\n"
                rightRows[k, default: []].append(j)
            }
        }
        _ = try s.table("load \(try temporaryFile("ids-right.csv", text)) as r; r | limit 1")
        var pairs = 0, sum = 0, unmatched = 0
        for (k, count) in expected {
            if let ws = rightRows[k] { pairs += count * ws.count; sum += count * ws.reduce(0, +) } else { unmatched += count }
        }
        let inner = try s.table("t | join r on k | count as n, sum w as w")
        #expect(inner.strings("n") == [String(pairs)])
        #expect(inner.strings("w") == [String(sum)])
        // A left join keeps the left rows without a match, and those without an id.
        let left = try s.table("t | left join r on k | count as n")
        #expect(left.strings("n") == [String(pairs + unmatched + Self.session.2)])
    }
}
