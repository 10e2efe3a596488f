/// Row orders for sort and for the groups of a summary: natural text order (or a
/// column's declared order), nulls last, ties kept in their original order.
enum Sorting {
    /// A comparison of two rows of one column: -1, 0, 1, with nulls after everything.
    static func comparator(_ c: Column) -> (Int, Int) -> Int {
        (try? comparator(c, cancel: nil)) ?? { _, _ in 0 }
    }

    /// A comparator whose making (the order of a text column's values) Ctrl-C can stop.
    static func comparator(_ c: Column, cancel: CancellationFlag?) throws -> (Int, Int) -> Int {
        let validity = c.validity
        func nulls(_ i: Int, _ j: Int) -> Int? {
            guard let v = validity else { return nil }
            let a = v[i], b = v[j]
            if a && b { return nil }
            if !a && !b { return 0 }
            return a ? -1 : 1
        }
        switch c.storage {
        case .int(let a), .timestamp(let a), .duration(let a):
            return { i, j in nulls(i, j) ?? (a[i] == a[j] ? 0 : (a[i] < a[j] ? -1 : 1)) }
        case .double(let a):
            // NaN sorts above every number and equal to itself, so its ties keep their order.
            return { i, j in nulls(i, j) ?? (a[i] == a[j] || (a[i].isNaN && a[j].isNaN) ? 0 : (a[i] < a[j] ? -1 : (a[i] > a[j] ? 1 : (a[i].isNaN ? 1 : -1)))) }
        case .bool(let a):
            return { i, j in nulls(i, j) ?? (a[i] == a[j] ? 0 : (!a[i] ? -1 : 1)) }
        case .string(let s):
            let ranks = try s.ranks(cancel: cancel)
            let codes = s.codes
            return { i, j in
                if let n = nulls(i, j) { return n }
                let x = ranks[Int(codes[i])], y = ranks[Int(codes[j])]
                return x == y ? 0 : (x < y ? -1 : 1)
            }
        case .null:
            return { _, _ in 0 }
        }
    }

    /// A sort of millions of rows takes seconds in a debug build: it looks at the
    /// cancellation flag every 16,384 comparisons, so Ctrl-C stops it at once.
    static func order(_ columns: [Column], descending: [Bool], count: Int, cancel: CancellationFlag? = nil) throws -> [Int32] {
        var idx = (0..<count).map { Int32($0) }
        let comparators = try columns.map { try comparator($0, cancel: cancel) }
        let validity = columns.map(\.validity)
        var comparisons = 0
        try idx.sort { x, y in
            comparisons &+= 1
            if comparisons & 0x3FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            let i = Int(x), j = Int(y)
            for (k, cmp) in comparators.enumerated() {
                var r = cmp(i, j)
                if r == 0 { continue }
                // Nulls stay last when sorting down too.
                if descending[k] {
                    let nullInvolved = validity[k].map { !$0[i] || !$0[j] } ?? false
                    if !nullInvolved { r = -r }
                }
                return r < 0
            }
            return x < y
        }
        return idx
    }
}
