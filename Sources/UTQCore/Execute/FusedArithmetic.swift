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
                withScratch { scratch in
                    var start = range.lowerBound
                    while start < range.upperBound {
                        let count = min(range.upperBound - start, FusedArithmetic.chunk)
                        let into = out.baseAddress! + start
                        let values = self.values(start, count, into: into, scratch: scratch)
                        if values != UnsafePointer(into) { into.update(from: values, count: count) }
                        start += count
                    }
                }
            }
            made = n
        }
    }

    /// How many steps deep the program goes: the buffers it needs for a chunk.
    private var depth: Int {
        if case .step(_, let a, let b) = self { return 1 + Swift.max(a.depth, b.depth) }
        return 0
    }

    /// A buffer of a chunk for each level of the program, for one worker.
    private func withScratch(_ body: (UnsafeMutablePointer<Double>) -> Void) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Swift.max(1, depth) * FusedArithmetic.chunk) { body($0.baseAddress!) }
    }

    /// The sum of the result for n rows, added exactly as `parallelSum` adds the column `run`
    /// would write (the same parts and the same four sums in each), without writing it: at
    /// ten million rows the column was 80 MB of fresh memory to write and read back.
    func sum(_ n: Int, workers: Int) -> CompensatedSum {
        let parts = sumParts(n, workers: workers)
        var sums = [CompensatedSum](repeating: CompensatedSum(), count: parts.count)
        sums.withUnsafeMutableBufferPointer { sums in
            Parallel.each(parts.count) { w in
                var lanes = FourSums()
                withScratch { scratch in
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: FusedArithmetic.chunk) { buffer in
                        // Chunks of a multiple of four rows, so the four sums take the rows they
                        // take in one pass.
                        var start = parts[w].lowerBound
                        while start < parts[w].upperBound {
                            let count = min(parts[w].upperBound - start, FusedArithmetic.chunk)
                            let values = self.values(start, count, into: buffer.baseAddress!, scratch: scratch)
                            lanes.add(UnsafeBufferPointer(start: values, count: count))
                            start += count
                        }
                    }
                }
                sums[w] = lanes.total
            }
        }
        var total = CompensatedSum()
        for part in sums { total.merge(part) }
        return total
    }

    /// This node's values for rows start ..< start + count: a column of numbers where it is
    /// (no copy of it is made), anything else worked out into `into`, with `scratch` (a
    /// chunk for each level below) for the right side of each step.
    private func values(_ start: Int, _ count: Int, into: UnsafeMutablePointer<Double>,
                        scratch: UnsafeMutablePointer<Double>) -> UnsafePointer<Double> {
        switch self {
        case .column(let d, let a):
            // The table holds the array (and so this program) while the rows are worked out: its
            // elements stay where they are.
            if let d { return d.withUnsafeBufferPointer { $0.baseAddress! + start } }
            a!.withUnsafeBufferPointer { p in for k in 0..<count { into[k] = Double(p[start &+ k]) } }
            return UnsafePointer(into)
        case .constant(let x):
            into.update(repeating: x, count: count)
            return UnsafePointer(into)
        case .step(let op, let a, let b):
            // A constant side is used as it is; the other side is worked out into `into`, and
            // the right one, when it is worked out, into this level's scratch.
            if case .constant(let c) = b {
                let l = a.values(start, count, into: into, scratch: scratch)
                switch op {
                case .add: for k in 0..<count { into[k] = l[k] + c }
                case .subtract: for k in 0..<count { into[k] = l[k] - c }
                default: for k in 0..<count { into[k] = l[k] * c }
                }
                return UnsafePointer(into)
            }
            if case .constant(let c) = a {
                let r = b.values(start, count, into: into, scratch: scratch)
                switch op {
                case .add: for k in 0..<count { into[k] = c + r[k] }
                case .subtract: for k in 0..<count { into[k] = c - r[k] }
                default: for k in 0..<count { into[k] = c * r[k] }
                }
                return UnsafePointer(into)
            }
            let l = a.values(start, count, into: into, scratch: scratch + FusedArithmetic.chunk)
            let r = b.values(start, count, into: scratch, scratch: scratch + FusedArithmetic.chunk)
            switch op {
            case .add: for k in 0..<count { into[k] = l[k] + r[k] }
            case .subtract: for k in 0..<count { into[k] = l[k] - r[k] }
            default: for k in 0..<count { into[k] = l[k] * r[k] }
            }
            return UnsafePointer(into)
        }
    }
}
