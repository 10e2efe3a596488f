/// Arithmetic of several steps over numbers (`x * 2 + y`) in one pass: the expression is
/// worked out a thousand rows at a time in small buffers that stay in the cache, and only
/// its result is written out, instead of a whole column for every step. Only for what it
/// computes exactly as the step-by-step path does: + - * over number columns without
/// nulls and numeric constants (a division may make nulls, so it stays a step of its own).
indirect enum FusedArithmetic {
    case column([Double]?, [Int64]?)
    case constant(Double)
    case step(BinaryOp, FusedArithmetic, FusedArithmetic)

    static let chunk = 1024

    /// The program of an expression of at least two steps, or nil.
    static func compile(_ e: BoundExpr, table: Table) -> FusedArithmetic? {
        guard case .binary(let op, let l, let r, .double) = e, [.add, .subtract, .multiply].contains(op),
              let a = node(l, table), let b = node(r, table) else { return nil }
        // One step alone is the plain loop already.
        if case .step = a { return .step(op, a, b) }
        if case .step = b { return .step(op, a, b) }
        return nil
    }

    static func node(_ e: BoundExpr, _ table: Table) -> FusedArithmetic? {
        switch e {
        case .column(let i, _):
            let c = table.columns[i]
            guard c.validity == nil || c.validity!.allSet else { return nil }
            switch c.storage {
            case .double(let d): return .column(d, nil)
            case .int(let a): return .column(nil, a)
            default: return nil
            }
        case .cast(let inner, .double): return inner.type == .int || inner.type == .double ? node(inner, table) : nil
        case .literal(.int(let x), _): return .constant(Double(x))
        case .literal(.double(let x), _): return .constant(x)
        case .binary(let op, let l, let r, .double) where [.add, .subtract, .multiply].contains(op):
            guard let a = node(l, table), let b = node(r, table) else { return nil }
            return .step(op, a, b)
        default:
            return nil
        }
    }

    /// The result for n rows.
    func run(_ n: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: n) { out, made in
            Arithmetic.inParts(n) { range in
                var scratch: [[Double]] = []
                var start = range.lowerBound
                while start < range.upperBound {
                    let end = min(range.upperBound, start + FusedArithmetic.chunk)
                    let result = UnsafeMutableBufferPointer(rebasing: out[start..<end])
                    evaluate(start, end - start, into: result, scratch: &scratch, depth: 0)
                    start = end
                }
            }
            made = n
        }
    }

    /// The sum of the result for n rows, added exactly as `parallelSum` adds the column `run`
    /// would write (the same parts and the same four sums in each), without writing it: at
    /// ten million rows the column was 80 MB of fresh memory to write and read back.
    func sum(_ n: Int, workers: Int) -> CompensatedSum {
        let parts = sumParts(n, workers: workers)
        var sums = [CompensatedSum](repeating: CompensatedSum(), count: parts.count)
        sums.withUnsafeMutableBufferPointer { sums in
            Parallel.each(parts.count) { w in
                var scratch: [[Double]] = []
                var lanes = FourSums()
                withUnsafeTemporaryAllocation(of: Double.self, capacity: FusedArithmetic.chunk) { buffer in
                    // Chunks of a multiple of four rows, so the four sums take the rows they take
                    // in one pass.
                    var start = parts[w].lowerBound
                    while start < parts[w].upperBound {
                        let count = min(parts[w].upperBound - start, FusedArithmetic.chunk)
                        let values = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                        evaluate(start, count, into: values, scratch: &scratch, depth: 0)
                        lanes.add(UnsafeBufferPointer(values))
                        start += count
                    }
                }
                sums[w] = lanes.total
            }
        }
        var total = CompensatedSum()
        for part in sums { total.merge(part) }
        return total
    }

    /// Fills `into` with this node's values for rows start ..< start + count.
    private func evaluate(_ start: Int, _ count: Int, into out: UnsafeMutableBufferPointer<Double>,
                          scratch: inout [[Double]], depth: Int) {
        switch self {
        case .column(let d, let a):
            if let d { d.withUnsafeBufferPointer { p in for k in 0..<count { out[k] = p[start + k] } } }
            else if let a { a.withUnsafeBufferPointer { p in for k in 0..<count { out[k] = Double(p[start + k]) } } }
        case .constant(let x):
            for k in 0..<count { out[k] = x }
        case .step(let op, let a, let b):
            // The right side into a buffer of this depth, the left into the output.
            while scratch.count <= depth { scratch.append([Double](repeating: 0, count: FusedArithmetic.chunk)) }
            var right = scratch[depth]
            scratch[depth] = []
            right.withUnsafeMutableBufferPointer { r in
                b.evaluate(start, count, into: UnsafeMutableBufferPointer(rebasing: r[0..<count]), scratch: &scratch, depth: depth + 1)
            }
            a.evaluate(start, count, into: out, scratch: &scratch, depth: depth + 1)
            right.withUnsafeBufferPointer { r in
                switch op {
                case .add: for k in 0..<count { out[k] = out[k] + r[k] }
                case .subtract: for k in 0..<count { out[k] = out[k] - r[k] }
                default: for k in 0..<count { out[k] = out[k] * r[k] }
                }
            }
            scratch[depth] = right
        }
    }
}
