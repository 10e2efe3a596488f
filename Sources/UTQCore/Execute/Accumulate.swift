import Foundation

/// Computes one aggregate for every group, given each row's group.
enum Accumulate {
    /// `pairs` keeps what summaries of two columns find, for others over the same columns.
    static func run(_ a: BoundAggregate, table: Table, evaluator ev: Evaluator, groupOf: [Int32], groups: Int, rows n: Int,
                    pairs: CoMoments.Cache? = nil) throws -> Column {
        if a.function == .count && a.argument == nil {
            // One group (a count of the whole table) is its row count; no need to look at the rows.
            if groups == 1 { return Column(name: a.name, storage: .int([Int64(n)])) }
            var counts = [Int64](repeating: 0, count: groups)
            counts.withUnsafeMutableBufferPointer { c in
                groupOf.withUnsafeBufferPointer { g in for i in 0..<n { c[Int(g[i])] &+= 1 } }
            }
            return Column(name: a.name, storage: .int(counts))
        }
        // The sum of the whole table of arithmetic over columns (`let z = x * 2 + y | sum z`):
        // added as it is worked out, a thousand rows at a time, with no column written for it.
        if a.function == .sum, !a.distinct, groups == 1, n >= 1 << 20, Workers.available > 1,
           let program = FusedArithmetic.compile(a.argument!, table: table) {
            return Column(name: a.name, storage: .double([program.sum(n, workers: Workers.available).value]))
        }
        let arg = try ev.column(a.argument!)
        let valid = arg.validity
        @inline(__always) func ok(_ i: Int) -> Bool { valid?[i] ?? true }
        if case .null = arg.storage {
            if a.function == .count { return Column(name: a.name, storage: .int(Array(repeating: 0, count: groups))) }
            return Column.constant(.null, type: a.type, count: groups, name: a.name)
        }

        if a.distinct {
            if groups == 1 {
                var distinct: Int64? = nil
                switch arg.storage {
                case .string(let s): distinct = DistinctCodes.count(s, validity: valid, rows: n)
                case .int(let v): distinct = DistinctCodes.count(ints: v, validity: valid, rows: n, bounds: arg.intBounds)
                default: break
                }
                if let distinct { return Column(name: a.name, storage: .int([distinct])) }
            }
            let codes = try KeyCodes(arg)
            var counts = [Int64](repeating: 0, count: groups)
            let card = codes.cardinality
            // A bit per (group, value) when that fits in 8 MB: a test and a set per row.
            if groups.multipliedReportingOverflow(by: card).partialValue <= 1 << 26, groups <= (1 << 26) / max(1, card) {
                var bits = [UInt64](repeating: 0, count: (groups * card + 63) / 64)
                groupOf.withUnsafeBufferPointer { g in bits.withUnsafeMutableBufferPointer { b in
                    func mark<C: FixedWidthInteger>(_ c: UnsafeBufferPointer<C>) {
                        for i in 0..<n where ok(i) {
                            let k = Int(g[i]) * card + Int(c[i])
                            let m = UInt64(1) << UInt64(k & 63)
                            if b[k >> 6] & m == 0 { b[k >> 6] |= m; counts[Int(g[i])] += 1 }
                        }
                    }
                    codes.codes.withLanes(mark, mark, mark)
                } }
                return Column(name: a.name, storage: .int(counts))
            }
            if GroupRanges<UInt32>.worthIt(groups: groups, rows: n) {
                // Many groups: each group's codes together, sorted, their changes counted.
                let ranges = codes.codes.wide.withUnsafeBufferPointer { c in
                    groupOf.withUnsafeBufferPointer { g in GroupRanges(c, groupOf: g, valid: valid, rows: n, groups: groups) }
                }
                counts.withUnsafeMutableBufferPointer { out in
                    ranges.forEachRangeByGroup { first, offsets, placed in
                        for l in 0..<(offsets.count - 1) where offsets[l + 1] > offsets[l] {
                            var group = UnsafeMutableBufferPointer(rebasing: placed[offsets[l]..<offsets[l + 1]])
                            group.sort()
                            var distinct: Int64 = 1
                            for j in 1..<group.count where group[j] != group[j - 1] { distinct += 1 }
                            out[first + l] = distinct
                        }
                    }
                }
                return Column(name: a.name, storage: .int(counts))
            }
            var seen = Set<Int64>()
            for i in 0..<n where ok(i) {
                let k = Int64(groupOf[i]) * Int64(codes.cardinality) + Int64(codes.codes[i])
                if seen.insert(k).inserted { counts[Int(groupOf[i])] += 1 }
            }
            return Column(name: a.name, storage: .int(counts))
        }

        switch a.function {
        case .count:
            var counts = [Int64](repeating: 0, count: groups)
            for i in 0..<n where ok(i) { counts[Int(groupOf[i])] += 1 }
            return Column(name: a.name, storage: .int(counts))

        case .sum:
            switch arg.storage {
            case .int(let v), .duration(let v):
                // Sums past 64 bits are found, not wrapped: add in 128 bits, then check.
                if groups == 1, n >= 1 << 20, Workers.available > 1 {
                    let (sum, count) = parallelWholeSum(v, valid, n)
                    guard let x = Int64(exactly: sum) else { throw outOfRange(a, a.type == .duration ? .duration : .wholeNumber) }
                    return Column(name: a.name, storage: a.type == .duration ? .duration([x]) : .int([x]),
                                  validity: count > 0 ? nil : Bitmap(count: 1, value: false))
                }
                let (sums, has) = fold(v, groupOf, valid, n, groups, Int128(0), merge: { $0 += $1 }) { $0 += Int128($1) }
                var out = [Int64](repeating: 0, count: groups)
                for g in 0..<groups {
                    guard let x = Int64(exactly: sums[g]) else { throw outOfRange(a, a.type == .duration ? .duration : .wholeNumber) }
                    out[g] = x
                }
                return Column(name: a.name, storage: a.type == .duration ? .duration(out) : .int(out), validity: has.bitmap)
            case .bool(let v):
                let (sums, has) = fold(v, groupOf, valid, n, groups, Int64(0), merge: { $0 += $1 }) { if $1 { $0 += 1 } }
                return Column(name: a.name, storage: .int(sums), validity: has.bitmap)
            default:
                if groups == 1, n >= 1 << 20, Workers.available > 1, case .double(let v) = arg.storage {
                    let (sum, any) = parallelSum(v, valid, n)
                    return Column(name: a.name, storage: .double([sum.value]), validity: any ? nil : Bitmap(count: 1, value: false))
                }
                let (sums, has) = fold(arg.doubles() ?? [], groupOf, valid, n, groups, CompensatedSum(), merge: { $0.merge($1) }) { $0.add($1) }
                return Column(name: a.name, storage: .double(sums.map(\.value)), validity: has.bitmap)
            }

        case .avg, .stddev:
            // The mean is the exact sum over the count (whole numbers add in 128 bits, others
            // with compensation), so it does not depend on the order of the rows; the
            // deviation is a second pass over the differences from that mean.
            var count = [Int](repeating: 0, count: groups)
            var mean = [Double](repeating: 0, count: groups)
            switch arg.storage {
            case .int(let v), .duration(let v), .timestamp(let v):
                if groups == 1, n >= 1 << 20, Workers.available > 1 {
                    let (sum, rows) = parallelWholeSum(v, valid, n)
                    if rows > 0 { count[0] = rows; mean[0] = Accumulate.divide(sum, rows) }
                    break
                }
                let (sums, _) = fold(v, groupOf, valid, n, groups, (Int128(0), 0), merge: { $0.0 += $1.0; $0.1 += $1.1 }) { $0.0 += Int128($1); $0.1 += 1 }
                for g in 0..<groups where sums[g].1 > 0 { count[g] = sums[g].1; mean[g] = Accumulate.divide(sums[g].0, count[g]) }
            default:
                let (sums, _) = fold(rawDoubles(arg), groupOf, valid, n, groups, MeanState(), merge: { $0.merge($1) }) { $0.add($1) }
                for g in 0..<groups where sums[g].count > 0 { count[g] = sums[g].count; mean[g] = sums[g].mean }
            }
            var has = Bitmap(count: groups, value: false)
            var out = [Double](repeating: 0, count: groups)
            if a.function == .avg {
                for g in 0..<groups where count[g] > 0 { out[g] = mean[g]; has[g] = true }
            } else {
                // Corrected two passes: the squares of the differences, less what the mean's own
                // rounding adds to them (the square of their sum over the count). Whole numbers
                // are made doubles here only: a mean of them needs none.
                let values = rawDoubles(arg)
                var squares = [CompensatedSum](repeating: CompensatedSum(), count: groups)
                var differences = [CompensatedSum](repeating: CompensatedSum(), count: groups)
                for i in 0..<n where ok(i) {
                    let g = Int(groupOf[i]), d = values[i] - mean[g]
                    squares[g].add(d * d); differences[g].add(d)
                }
                for g in 0..<groups where count[g] > 1 {
                    let n = Double(count[g]), e = differences[g].value
                    let sum = squares[g].value - (e.isFinite ? e * e / n : 0)
                    out[g] = (sum.isNaN ? sum : Swift.max(0, sum) / (n - 1)).squareRoot(); has[g] = true
                }
            }
            return try typed(out, a.type, has, a)

        case .path, .collect, .dissolve:
            return try GeometryAggregates.run(a, arg, groupOf: groupOf, groups: groups, rows: n, notes: ev.notes)

        case .circmean:
            // The direction of the sum of unit vectors: atan2 of the summed sines and cosines.
            var sines = [CompensatedSum](repeating: CompensatedSum(), count: groups)
            var cosines = [CompensatedSum](repeating: CompensatedSum(), count: groups)
            var has = Bitmap(count: groups, value: false)
            let values = rawDoubles(arg)
            for i in 0..<n where ok(i) && values[i].isFinite {
                let g = Int(groupOf[i]), r = values[i] * .pi / 180
                sines[g].add(Foundation.sin(r)); cosines[g].add(Foundation.cos(r)); has[g] = true
            }
            var out = [Double](repeating: 0, count: groups)
            for g in 0..<groups where has[g] {
                let (s, c) = (sines[g].value, cosines[g].value)
                // Angles that cancel out (0 and 180) have no mean direction.
                if Swift.abs(s) < 1e-12 && Swift.abs(c) < 1e-12 { has[g] = false; continue }
                out[g] = Foundation.atan2(s, c) * 180 / .pi
            }
            return Column(name: a.name, storage: .double(out), validity: has)

        case .median, .percentile:
            let p: Double
            if case .percentile(let k) = a.function { p = Double(k) / 100 } else { p = 0.5 }
            let values = rawDoubles(arg)
            if GroupRanges<Double>.worthIt(groups: groups, rows: n) {
                // Many groups: by ranges of groups on the cores, each range's groups in its cache.
                let ranges = values.withUnsafeBufferPointer { v in
                    groupOf.withUnsafeBufferPointer { g in GroupRanges(v, groupOf: g, valid: valid, rows: n, groups: groups) }
                }
                var has = [Bool](repeating: false, count: groups)
                var out = [Double](repeating: 0, count: groups)
                out.withUnsafeMutableBufferPointer { o in has.withUnsafeMutableBufferPointer { h in
                    ranges.forEachRangeByGroup { first, offsets, placed in
                        for l in 0..<(offsets.count - 1) where offsets[l + 1] > offsets[l] {
                            let part = UnsafeMutableBufferPointer(rebasing: placed[offsets[l]..<offsets[l + 1]])
                            let rank = p * Double(part.count - 1)
                            let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
                            let (a, b) = Selection.pair(part, lo, hi)
                            o[first + l] = Selection.between(a, b, rank - Double(lo))
                            h[first + l] = true
                        }
                    }
                } }
                return try typed(out, a.type, Seen(flags: has).bitmap, a)
            }
            // Rows of each group together (counting sort), then each group's two middle values by
            // selection (no group is sorted whole), groups of about equal rows on the cores.
            var starts = [Int](repeating: 0, count: groups + 1)
            var placed: [Double] = []
            groupOf.withUnsafeBufferPointer { g in values.withUnsafeBufferPointer { v in starts.withUnsafeMutableBufferPointer { s in
                if let valid { for i in 0..<n where valid[i] { s[Int(g[i]) + 1] &+= 1 } } else { for i in 0..<n { s[Int(g[i]) + 1] &+= 1 } }
                for k in 0..<groups { s[k + 1] &+= s[k] }
                var fill = Array(s[0..<groups])
                placed = [Double](unsafeUninitializedCapacity: s[groups]) { out, count in
                    fill.withUnsafeMutableBufferPointer { f in
                        for i in 0..<n where ok(i) { let k = Int(g[i]); out[f[k]] = v[i]; f[k] &+= 1 }
                    }
                    count = s[groups]
                }
            } } }
            var has = [Bool](repeating: false, count: groups)
            var out = [Double](repeating: 0, count: groups)
            let parts = min(groups, Workers.parts(rows: n))
            // Part w's groups start where its share of the rows does.
            func firstGroup(atRow r: Int) -> Int {
                var lo = 0, hi = groups
                while lo < hi { let m = (lo + hi) / 2; if starts[m] < r { lo = m + 1 } else { hi = m } }
                return lo
            }
            let bounds = (0...parts).map { w in w == parts ? groups : firstGroup(atRow: starts[groups] * w / parts) }
            placed.withUnsafeMutableBufferPointer { all in out.withUnsafeMutableBufferPointer { o in has.withUnsafeMutableBufferPointer { h in
                Parallel.each(parts) { w in
                    for g in bounds[w]..<bounds[w + 1] where starts[g + 1] > starts[g] {
                        let part = UnsafeMutableBufferPointer(rebasing: all[starts[g]..<starts[g + 1]])
                        let rank = p * Double(part.count - 1)
                        let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
                        let (a, b) = Selection.pair(part, lo, hi)
                        o[g] = Selection.between(a, b, rank - Double(lo))
                        h[g] = true
                    }
                }
            } } }
            return try typed(out, a.type, Seen(flags: has).bitmap, a)

        case .corr, .covar, .covarPop, .regrSlope, .regrIntercept, .regrR2:
            guard let second = a.second else { return Column.constant(.null, type: .double, count: groups, name: a.name) }
            return CoMoments.run(a, y: arg, x: try ev.column(second), groupOf: groupOf, groups: groups, rows: n, cache: pairs)

        case .min, .max, .first, .last:
            var best = [Int32](repeating: -1, count: groups)
            let cmp = Sorting.comparator(arg)
            for i in 0..<n where ok(i) {
                let g = Int(groupOf[i])
                if replaces(a.function, cmp, i, Int(best[g])) { best[g] = Int32(i) }
            }
            return picked(arg, best, name: a.name)
        }
    }

    /// Whether row `i` takes the place of row `best` (-1: none yet) as its group's `min`,
    /// `max`, `first` or `last`: of equal values the first row stays.
    @inline(__always)
    static func replaces(_ f: AggregateFunction, _ cmp: (Int, Int) -> Int, _ i: Int, _ best: Int) -> Bool {
        switch f {
        case .first: return best < 0
        case .last: return true
        case .min: return best < 0 || cmp(i, best) < 0
        default: return best < 0 || cmp(i, best) > 0
        }
    }

    /// The rows picked for each group (-1 for none: a null), as the aggregate's column; text
    /// keeps only the values picked.
    static func picked(_ arg: Column, _ rows: [Int32], name: String) -> Column {
        var c = arg.gather(rows)
        c.name = name
        if case .string(let s) = c.storage { c.storage = .string(s.compacted()) }
        return c
    }

    /// Values as Doubles in their own units (durations and times in microseconds).
    static func rawDoubles(_ c: Column) -> [Double] {
        switch c.storage {
        case .int(let a), .timestamp(let a), .duration(let a): return a.map { Double($0) }
        case .double(let a): return a
        case .bool(let a): return a.map { $0 ? 1 : 0 }
        default: return Array(repeating: 0, count: c.count)
        }
    }

    static func typed(_ values: [Double], _ type: DataType, _ has: Bitmap, _ a: BoundAggregate) throws -> Column {
        func whole(_ kind: ValueOutOfRange.Kind) throws -> [Int64] {
            try values.map { v in
                guard let x = Checked.int64(v.rounded()) else { throw outOfRange(a, kind) }
                return x
            }
        }
        switch type {
        case .duration: return Column(name: a.name, storage: .duration(try whole(.duration)), validity: has)
        case .timestamp: return Column(name: a.name, storage: .timestamp(try whole(.time)), validity: has)
        default: return Column(name: a.name, storage: .double(values), validity: has)
        }
    }

    /// Each valid row's value added into its group's state, with which groups had any.
    /// With few groups, rows go round four states per group, merged at the end: consecutive rows of one
    /// group (the usual case: most entries share a legend) then do not each wait for the last one's sum.
    @inline(__always)
    static func fold<V, S>(_ values: [V], _ groupOf: [Int32], _ valid: Bitmap?, _ n: Int, _ groups: Int, _ initial: S,
                           merge: (inout S, S) -> Void, _ add: (inout S, V) -> Void) -> ([S], Seen) {
        let lanes = groups <= 4096 && n >= 4096 ? 4 : 1
        if GroupRanges<V>.worthIt(groups: groups, rows: n) {
            let ranges = values.withUnsafeBufferPointer { v in
                groupOf.withUnsafeBufferPointer { g in GroupRanges(v, groupOf: g, valid: valid, rows: n, groups: groups) }
            }
            var state = [S](repeating: initial, count: groups)
            var seen = [Bool](repeating: false, count: groups)
            state.withUnsafeMutableBufferPointer { s in seen.withUnsafeMutableBufferPointer { h in
                ranges.forEachRange { _, g, v in
                    for j in g.indices { let k = Int(g[j]); add(&s[k], v[j]); h[k] = true }
                }
            } }
            return (state, Seen(flags: seen))
        }
        var state = [S](repeating: initial, count: groups * lanes)
        var seen = [Bool](repeating: false, count: groups)
        state.withUnsafeMutableBufferPointer { s in seen.withUnsafeMutableBufferPointer { h in
            values.withUnsafeBufferPointer { v in groupOf.withUnsafeBufferPointer { g in
                if groups == 1 {
                    // A summary of the whole table: every row is group 0, no need to read which.
                    if let valid {
                        // A word of the validity at a time: its set bits only (a test per row is
                        // mispredicted where valid and null rows mix, as after a `where`).
                        valid.words.withUnsafeBufferPointer { words in
                            for k in 0..<words.count {
                                var m = words[k]
                                if m != 0 { h[0] = true }
                                while m != 0 {
                                    let i = k << 6 | m.trailingZeroBitCount
                                    add(&s[i & (lanes &- 1)], v[i])
                                    m &= m &- 1
                                }
                            }
                        }
                    } else {
                        for i in 0..<n { add(&s[i & (lanes &- 1)], v[i]) }
                        if n > 0 { h[0] = true }
                    }
                } else if let valid {
                    for i in 0..<n where valid[i] { let k = Int(g[i]); add(&s[k &* lanes &+ (i & (lanes &- 1))], v[i]); h[k] = true }
                } else {
                    // Every group is made of rows, so with no nulls every group has a value.
                    for i in 0..<n { add(&s[Int(g[i]) &* lanes &+ (i & (lanes &- 1))], v[i]) }
                    if n > 0 { for k in 0..<groups { h[k] = true } }
                }
            } }
        } }
        guard lanes > 1 else { return (state, Seen(flags: seen)) }
        var merged = [S](repeating: initial, count: groups)
        for k in 0..<groups {
            merged[k] = state[k * lanes]
            for lane in 1..<lanes { merge(&merged[k], state[k * lanes + lane]) }
        }
        return (merged, Seen(flags: seen))
    }

    struct Seen {
        let flags: [Bool]
        var bitmap: Bitmap {
            var b = Bitmap()
            b.reserveCapacity(flags.count)
            for f in flags { b.append(f) }
            return b
        }
    }

    /// A 128-bit sum over a count, correctly rounded to a double.
    static func divide(_ sum: Int128, _ count: Int) -> Double {
        // Whole part and remainder apart, so a sum past 2^53 keeps its digits. In 64 bits when
        // the sum fits: the same quotient and remainder, each converted with the same rounding,
        // where a double made of an Int128 takes the generic way, slower than the division.
        if let small = Int64(exactly: sum) {
            let (q, r) = small.quotientAndRemainder(dividingBy: Int64(count))
            return Double(q) + Double(r) / Double(count)
        }
        let (q, r) = sum.quotientAndRemainder(dividingBy: Int128(count))
        return Double(q) + Double(r) / Double(count)
    }

    static func outOfRange(_ a: BoundAggregate, _ kind: ValueOutOfRange.Kind) -> Diagnostic {
        let what = a.function.name + (a.argument.map { " " + $0.describeBare } ?? "")
        let r = ValueOutOfRange(kind: kind, row: 0)
        var hint = r.hint
        if kind == .wholeNumber, let arg = a.argument { hint = "to add with decimals: \(a.function.name) number(\(arg.describeBare))" }
        return Diagnostic("\(what) \(r.reason)", hint: hint)
    }
}

/// A sum of doubles with Neumaier's compensation: the low digits each addition loses are
/// kept and added back, so 184 + 1e15 − 1e15 is 184 in any order.
/// The sum of a large column on every core: a stretch of rows each, four lanes per stretch
/// (so the additions do not wait on each other), the partial sums merged with their lost digits.
func parallelSum(_ v: [Double], _ valid: Bitmap?, _ n: Int) -> (CompensatedSum, Bool) {
    let workers = Workers.available
    let parts = ParallelParts<(CompensatedSum, Bool)>(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
        // Four sums in registers, four rows at a time, so no addition waits on the one before.
        var s0 = CompensatedSum(), s1 = CompensatedSum(), s2 = CompensatedSum(), s3 = CompensatedSum()
        var any = false
        let part = sumParts(n, workers: workers)[w]
        let from = part.lowerBound, to = part.upperBound
        v.withUnsafeBufferPointer { x in
            if let valid {
                // A word at a time: all 64 rows valid, four sums as below; else only its set
                // bits (a test per row would be mispredicted where valid and null rows mix, as
                // after a `where`). Written out, not through forEachKept: the compensated sums
                // captured by its closures ran 10-20% slower (`where legend = "Bike" | sum x`).
                valid.words.withUnsafeBufferPointer { words in
                    var base = from
                    while base < to {
                        var m = words[base >> 6]
                        if to - base < 64 { m &= (1 << UInt64(to - base)) &- 1 }
                        if m == ~0 {
                            var i = base
                            while i < base + 64 { s0.add(x[i]); s1.add(x[i + 1]); s2.add(x[i + 2]); s3.add(x[i + 3]); i += 4 }
                            any = true
                        } else if m != 0 {
                            any = true
                            while m != 0 { s0.add(x[base + m.trailingZeroBitCount]); m &= m &- 1 }
                        }
                        base += 64
                    }
                }
            } else {
                any = to > from
                var lanes = FourSums()
                lanes.add(UnsafeBufferPointer(rebasing: x[from..<to]))
                (s0, s1, s2, s3) = (lanes.s0, lanes.s1, lanes.s2, lanes.s3)
            }
        }
        s0.merge(s1); s0.merge(s2); s0.merge(s3)
        parts.set(w, .success((s0, any)))
    }
    var total = CompensatedSum()
    var any = false
    for w in 0..<workers {
        if case .success(let (part, a)) = parts.own(w) { total.merge(part); any = any || a }
    }
    return (total, any)
}

/// The rows of `from..<to` (`from` a multiple of 64) that `valid` keeps, a word of it at a
/// time: `whole(base)` for 64 rows all kept from `base`, `one(i)` for each kept row of the
/// other words (a test per row would be mispredicted where kept and null rows mix, as after a
/// `where`). How many were kept.
@inline(__always)
func forEachKept(_ valid: Bitmap, from: Int, to: Int, whole: (Int) -> Void, one: (Int) -> Void) -> Int {
    var kept = 0
    valid.words.withUnsafeBufferPointer { words in
        var base = from
        while base < to {
            var m = words[base >> 6]
            if to - base < 64 { m &= (1 << UInt64(to - base)) &- 1 }
            kept &+= m.nonzeroBitCount
            if m == ~0 {
                whole(base)
            } else {
                while m != 0 { one(base + m.trailingZeroBitCount); m &= m &- 1 }
            }
            base += 64
        }
    }
    return kept
}

/// The exact sum of a column of whole numbers (or times, or durations) and how many rows hold
/// one, the rows split across the cores: each part adds into 128 bits, which no 2^64 values of
/// 64 bits can leave, so the parts' sums add up to the sum in any order.
func parallelWholeSum(_ v: [Int64], _ valid: Bitmap?, _ n: Int) -> (sum: Int128, count: Int) {
    let workers = Workers.available
    let parts = ParallelParts<(Int128, Int)>(count: workers)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
        let part = sumParts(n, workers: workers)[w]
        let from = part.lowerBound, to = part.upperBound
        // Four sums, so no addition waits on the one before.
        var s0: Int128 = 0, s1: Int128 = 0, s2: Int128 = 0, s3: Int128 = 0
        var count = 0
        v.withUnsafeBufferPointer { x in
            if let valid {
                count = forEachKept(valid, from: from, to: to) { base in
                    var i = base
                    while i < base + 64 {
                        s0 &+= Int128(x[i]); s1 &+= Int128(x[i + 1]); s2 &+= Int128(x[i + 2]); s3 &+= Int128(x[i + 3]); i += 4
                    }
                } one: { i in
                    s0 &+= Int128(x[i])
                }
            } else {
                count = to - from
                var i = from
                while i + 4 <= to {
                    s0 &+= Int128(x[i]); s1 &+= Int128(x[i + 1]); s2 &+= Int128(x[i + 2]); s3 &+= Int128(x[i + 3]); i += 4
                }
                while i < to { s0 &+= Int128(x[i]); i += 1 }
            }
        }
        parts.set(w, .success((s0 &+ s1 &+ s2 &+ s3, count)))
    }
    var sum: Int128 = 0, count = 0
    for w in 0..<workers {
        if case .success(let (part, c)) = parts.own(w) { sum &+= part; count += c }
    }
    return (sum, count)
}

/// The rows of a part of `parallelSum` without nulls added into four sums, four rows at a
/// time (so no addition waits on the one before), the last rows short of four into the
/// first. Values given in several stretches (`FusedArithmetic.sum`'s chunks) add as in one
/// when every stretch but the last holds a multiple of four.
struct FourSums {
    var s0 = CompensatedSum(), s1 = CompensatedSum(), s2 = CompensatedSum(), s3 = CompensatedSum()

    mutating func add(_ x: UnsafeBufferPointer<Double>) {
        var i = 0
        let n = x.count
        while i + 4 <= n { s0.add(x[i]); s1.add(x[i + 1]); s2.add(x[i + 2]); s3.add(x[i + 3]); i += 4 }
        while i < n { s0.add(x[i]); i += 1 }
    }

    /// The part's sum, as `parallelSum` merges its four.
    var total: CompensatedSum {
        var s = s0
        s.merge(s1); s.merge(s2); s.merge(s3)
        return s
    }
}

/// The parts `parallelSum` splits n rows into, one a worker: each starts on a word of a
/// bitmap (64 rows).
func sumParts(_ n: Int, workers: Int) -> [Range<Int>] {
    (0..<workers).map { w in
        (w == 0 ? 0 : (n * w / workers) & ~63)..<(w == workers - 1 ? n : (n * (w + 1) / workers) & ~63)
    }
}

/// A mean as the rows go by: the compensated sum, how many, and the first value and whether
/// another differed. The sum over the count is a last place off at times (three of 7296808.4
/// make a sum that divides back to a neighbour): a group whose values are all one value has
/// that value as its mean, and so no spread (a finite mean has only finite values, so "all
/// one value" is exact). 32 bytes, two a cache line: at 10M ids SummaryByIds reads a table of
/// them from memory at every block. All zero bits is the empty state (a table of them can be
/// calloc'd). A group counts at most 2^32 rows (a group number is 32 bits).
struct MeanState {
    var sum = CompensatedSum()
    var first = 0.0
    private var rows: UInt32 = 0
    private var varied: UInt32 = 0

    var count: Int { Int(rows) }

    @inline(__always)
    mutating func add(_ x: Double) {
        if rows == 0 { first = x } else if x != first { varied = 1 }
        sum.add(x)
        rows &+= 1
    }

    mutating func merge(_ other: MeanState) {
        guard other.rows > 0 else { return }
        if rows == 0 {
            first = other.first
            varied = other.varied
        } else if other.varied != 0 || other.first != first {
            varied = 1
        }
        sum.merge(other.sum)
        rows &+= other.rows
    }

    /// The mean of a state with a value (0 for none).
    var mean: Double {
        guard rows > 0 else { return 0 }
        let m = sum.value / Double(rows)
        return m.isFinite && varied == 0 ? first : m
    }
}

struct CompensatedSum {
    private var sum = 0.0
    private var compensation = 0.0

    mutating func add(_ x: Double) {
        let t = sum + x
        // Past the range of doubles (or with NaN) there are no lost digits to keep.
        guard t.isFinite else { sum = t; return }
        // The larger and smaller of the two chosen by selects, not a branch: which is larger
        // changes from row to row, and a mispredicted branch costs more than the arithmetic.
        let sumIsLarger = Swift.abs(sum) >= Swift.abs(x)
        let large = sumIsLarger ? sum : x, small = sumIsLarger ? x : sum
        compensation += (large - t) + small
        sum = t
    }

    var value: Double { sum.isFinite ? sum + compensation : sum }

    /// Another partial sum taken in: its sum added as a value, its lost digits kept with ours.
    mutating func merge(_ other: CompensatedSum) {
        add(other.sum)
        compensation += other.compensation
    }
}
