/// Computes one aggregate for every group, given each row's group.
enum Accumulate {
    static func run(_ a: BoundAggregate, table: Table, evaluator ev: Evaluator, groupOf: [Int32], groups: Int, rows n: Int) throws -> Column {
        if a.function == .count && a.argument == nil {
            var counts = [Int64](repeating: 0, count: groups)
            counts.withUnsafeMutableBufferPointer { c in
                groupOf.withUnsafeBufferPointer { g in for i in 0..<n { c[Int(g[i])] &+= 1 } }
            }
            return Column(name: a.name, storage: .int(counts))
        }
        let arg = try ev.column(a.argument!)
        let valid = arg.validity
        @inline(__always) func ok(_ i: Int) -> Bool { valid?[i] ?? true }
        if case .null = arg.storage {
            if a.function == .count { return Column(name: a.name, storage: .int(Array(repeating: 0, count: groups))) }
            return Column.constant(.null, type: a.type, count: groups, name: a.name)
        }

        if a.distinct {
            let codes = try KeyCodes(arg)
            var seen = Set<Int64>()
            var counts = [Int64](repeating: 0, count: groups)
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
            var has = Bitmap(count: groups, value: false)
            switch arg.storage {
            case .int(let v), .duration(let v):
                var sums = [Int64](repeating: 0, count: groups)
                for i in 0..<n where ok(i) { let g = Int(groupOf[i]); sums[g] &+= v[i]; has[g] = true }
                return Column(name: a.name, storage: a.type == .duration ? .duration(sums) : .int(sums), validity: has)
            case .bool(let v):
                var sums = [Int64](repeating: 0, count: groups)
                for i in 0..<n where ok(i) { let g = Int(groupOf[i]); if v[i] { sums[g] += 1 }; has[g] = true }
                return Column(name: a.name, storage: .int(sums), validity: has)
            default:
                let v = arg.doubles() ?? []
                var sums = [Double](repeating: 0, count: groups)
                for i in 0..<n where ok(i) { let g = Int(groupOf[i]); sums[g] += v[i]; has[g] = true }
                return Column(name: a.name, storage: .double(sums), validity: has)
            }

        case .avg, .stddev:
            // Welford's method: stable for large values such as timestamps.
            var count = [Double](repeating: 0, count: groups)
            var mean = [Double](repeating: 0, count: groups)
            var m2 = [Double](repeating: 0, count: groups)
            let values = rawDoubles(arg)
            for i in 0..<n where ok(i) {
                let g = Int(groupOf[i])
                count[g] += 1
                let delta = values[i] - mean[g]
                mean[g] += delta / count[g]
                m2[g] += delta * (values[i] - mean[g])
            }
            var has = Bitmap(count: groups, value: false)
            var out = [Double](repeating: 0, count: groups)
            for g in 0..<groups {
                if a.function == .avg {
                    if count[g] > 0 { out[g] = mean[g]; has[g] = true }
                } else if count[g] > 1 {
                    out[g] = (m2[g] / (count[g] - 1)).squareRoot(); has[g] = true
                }
            }
            return typed(out, a.type, has, a.name)

        case .median, .percentile:
            let p: Double
            if case .percentile(let k) = a.function { p = Double(k) / 100 } else { p = 0.5 }
            let values = rawDoubles(arg)
            // Rows of each group together (counting sort), then each group's values sorted.
            var starts = [Int](repeating: 0, count: groups + 1)
            for i in 0..<n where ok(i) { starts[Int(groupOf[i]) + 1] += 1 }
            for g in 0..<groups { starts[g + 1] += starts[g] }
            var fill = starts
            var sorted = [Double](repeating: 0, count: starts[groups])
            for i in 0..<n where ok(i) { let g = Int(groupOf[i]); sorted[fill[g]] = values[i]; fill[g] += 1 }
            var has = Bitmap(count: groups, value: false)
            var out = [Double](repeating: 0, count: groups)
            for g in 0..<groups where starts[g + 1] > starts[g] {
                var slice = Array(sorted[starts[g]..<starts[g + 1]])
                slice.sort()
                let rank = p * Double(slice.count - 1)
                let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
                out[g] = slice[lo] + (slice[hi] - slice[lo]) * (rank - Double(lo))
                has[g] = true
            }
            return typed(out, a.type, has, a.name)

        case .min, .max, .first, .last:
            var best = [Int32](repeating: -1, count: groups)
            let cmp = Sorting.comparator(arg)
            for i in 0..<n where ok(i) {
                let g = Int(groupOf[i])
                let b = best[g]
                switch a.function {
                case .first: if b < 0 { best[g] = Int32(i) }
                case .last: best[g] = Int32(i)
                case .min: if b < 0 || cmp(i, Int(b)) < 0 { best[g] = Int32(i) }
                default: if b < 0 || cmp(i, Int(b)) > 0 { best[g] = Int32(i) }
                }
            }
            var c = arg.gather(best)
            c.name = a.name
            if case .string(let s) = c.storage { c.storage = .string(s.compacted()) }
            return c
        }
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

    static func typed(_ values: [Double], _ type: DataType, _ has: Bitmap, _ name: String) -> Column {
        switch type {
        case .duration: return Column(name: name, storage: .duration(values.map { Int64($0.rounded()) }), validity: has)
        case .timestamp: return Column(name: name, storage: .timestamp(values.map { Int64($0.rounded()) }), validity: has)
        default: return Column(name: name, storage: .double(values), validity: has)
        }
    }
}
