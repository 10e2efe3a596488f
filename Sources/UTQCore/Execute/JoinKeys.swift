/// The keys of both sides of a join as small integers: equal keys get the same id, so the
/// join matches ids instead of building a key of values for every row. Text keys are
/// matched through the two dictionaries once (a code of the left maps to an id of the
/// right), numbers through one hash table of the right's values. nil when a key pair is
/// of types that need the general path (a whole number against a decimal).
struct JoinKeys {
    /// Per left row: the id of its key, or -1 when it is null or no right row has it.
    var left: [Int32]
    /// The right rows of each id, ids in order: rows[offsets[id] ..< offsets[id + 1]],
    /// each id's rows ascending.
    var offsets: [Int32]
    var rows: [Int32]
    /// Each key at most once on the right and `left` holds right row numbers themselves
    /// (-1 for none): `offsets` and `rows` are empty.
    var leftIsRightRows = false
    /// With `leftIsRightRows`: when set, `left` holds rows of the right table put in this
    /// order (its keys ascending, one row for each key of a span with no gaps), so the
    /// right columns are first gathered in this order.
    var rightOrder: [Int32]? = nil
    /// With `leftIsRightRows`: how many left rows have no right row (-1).
    var misses = 0
    /// With `rightOrder`: when set, every left row has its right row at its key less `low`
    /// (in the right table so ordered), and `left` is empty.
    var leftKeys: (values: [Int64], low: Int64)? = nil

    init?(left lk: [Column], right rk: [Column], leftCount: Int, rightCount: Int, cancel: CancellationFlag?) throws {
        guard !lk.isEmpty, lk.count == rk.count else { return nil }
        if lk.count == 1, let found = JoinKeys.lookup(lk[0], rk[0], leftCount: leftCount, rightCount: rightCount) {
            (left, offsets, self.rows, leftIsRightRows) = (found.rows, [], [], true)
            (rightOrder, misses, leftKeys) = (found.order, found.misses, found.keys)
            return
        }
        var l: [Int32] = [], r: [Int32] = [], ids = 0
        for (k, (a, b)) in zip(lk, rk).enumerated() {
            guard let pair = JoinKeys.codes(a, b, leftCount: leftCount, rightCount: rightCount) else { return nil }
            if cancel?.isCancelled == true { throw CancellationError() }
            if k == 0 {
                (l, r, ids) = pair
            } else {
                (l, r, ids) = JoinKeys.combine((l, r), pair.0, pair.1)
            }
        }
        // Counting sort of the right rows by id: ascending within an id, as they came.
        var offsets = [Int32](repeating: 0, count: ids + 1)
        for id in r where id >= 0 { offsets[Int(id) + 1] += 1 }
        for k in 0..<ids { offsets[k + 1] += offsets[k] }
        var next = offsets
        var rows = [Int32](repeating: 0, count: Int(offsets[ids]))
        for (j, id) in r.enumerated() where id >= 0 {
            rows[Int(next[Int(id)])] = Int32(j)
            next[Int(id)] += 1
        }
        self.left = l
        self.offsets = offsets
        self.rows = rows
    }

    /// One key column of each side as ids in the right side's terms.
    static func codes(_ a: Column, _ b: Column, leftCount: Int, rightCount: Int) -> ([Int32], [Int32], Int)? {
        switch (a.storage, b.storage) {
        case (.string(let x), .string(let y)):
            var ids: [String: Int32] = [:]
            ids.reserveCapacity(y.dictionary.count)
            let rightMap = y.dictionary.map { value -> Int32 in
                if let id = ids[value] { return id }
                let id = Int32(ids.count)
                ids[value] = id
                return id
            }
            let leftMap = x.dictionary.map { ids[$0] ?? -1 }
            return (map(x.codes, leftMap, a.validity), map(y.codes, rightMap, b.validity), ids.count)
        case (.int(let x), .int(let y)), (.timestamp(let x), .timestamp(let y)), (.duration(let x), .duration(let y)):
            return integers(x, a.validity, y, b.validity, leftCount: leftCount, rightCount: rightCount)
        case (.bool(let x), .bool(let y)):
            let l = (0..<leftCount).map { a.isValid($0) ? Int32(x[$0] ? 1 : 0) : -1 }
            let r = (0..<rightCount).map { b.isValid($0) ? Int32(y[$0] ? 1 : 0) : -1 }
            return (l, r, 2)
        case (.null, _), (_, .null):
            return ([Int32](repeating: -1, count: leftCount), [Int32](repeating: -1, count: rightCount), 0)
        default:
            return nil
        }
    }

    /// Whole-number keys: the right side's values numbered through a table indexed by value
    /// when they lie within a few times their count of each other (ids 1 to n, row numbers),
    /// else through a hash table of them; the left side's looked up in it.
    static func integers(_ x: [Int64], _ xValid: Bitmap?, _ y: [Int64], _ yValid: Bitmap?, leftCount: Int, rightCount: Int) -> ([Int32], [Int32], Int) {
        var r = [Int32](repeating: -1, count: rightCount)
        // The left side's ids start as "no match" where not every row is written once.
        var l: [Int32] = []
        func noMatches() -> [Int32] { [Int32](repeating: -1, count: leftCount) }
        let (lo, hi) = bounds(y, yValid)
        guard lo <= hi else { return (noMatches(), r, 0) }
        let (span, overflow) = hi.subtractingReportingOverflow(lo)
        if !overflow, span < Int64(max(1 << 16, 4 * rightCount)) {
            var table = [Int32](repeating: -1, count: Int(span) + 1)
            var ids: Int32 = 0
            if xValid != nil { l = noMatches() }
            table.withUnsafeMutableBufferPointer { t in
                y.withUnsafeBufferPointer { y in
                    for j in 0..<rightCount where yValid?[j] ?? true {
                        let k = Int(y[j] &- lo)
                        if t[k] < 0 { t[k] = ids; ids += 1 }
                        r[j] = t[k]
                    }
                }
                guard let xValid else { return }
                x.withUnsafeBufferPointer { x in
                    for i in 0..<leftCount where xValid[i] {
                        let v = x[i]
                        if v >= lo && v <= hi { l[i] = t[Int(v &- lo)] }
                    }
                }
            }
            // Without nulls on the left (the usual case), every row is written once, with no
            // look at a bitmap: at ten million rows the left side's pass is most of the keys' time.
            if xValid == nil {
                l = table.withUnsafeBufferPointer { t in
                    x.withUnsafeBufferPointer { x in
                        [Int32](unsafeUninitializedCapacity: leftCount) { out, made in
                            for i in 0..<leftCount {
                                let k = x[i] &- lo
                                out[i] = k >= 0 && k <= span ? t[Int(k)] : -1
                            }
                            made = leftCount
                        }
                    }
                }
            }
            return (l, r, Int(ids))
        }
        var ids = IntIds(expected: rightCount)
        l = noMatches()
        for j in 0..<rightCount where yValid?[j] ?? true { r[j] = ids.id(y[j]) }
        for i in 0..<leftCount where xValid?[i] ?? true { l[i] = ids.find(x[i]) }
        return (l, r, ids.count)
    }

    /// Codes through a table of code → id; a null row is -1.
    static func map(_ codes: DictionaryCodes, _ table: [Int32], _ validity: Bitmap?) -> [Int32] {
        var out = codes.through(table)
        if let v = validity { for i in 0..<codes.count where !v[i] { out[i] = -1 } }
        return out
    }

    /// Ids of two keys together: each pair of ids the right side has gets an id of its own.
    static func combine(_ first: ([Int32], [Int32]), _ l2: [Int32], _ r2: [Int32]) -> ([Int32], [Int32], Int) {
        var ids: [Int64: Int32] = [:]
        func pair(_ a: Int32, _ b: Int32) -> Int64 { Int64(a) << 32 | Int64(UInt32(bitPattern: b)) }
        let r = zip(first.1, r2).map { a, b -> Int32 in
            guard a >= 0, b >= 0 else { return -1 }
            let k = pair(a, b)
            if let id = ids[k] { return id }
            let id = Int32(ids.count)
            ids[k] = id
            return id
        }
        let l = zip(first.0, l2).map { a, b -> Int32 in a >= 0 && b >= 0 ? ids[pair(a, b)] ?? -1 : -1 }
        return (l, r, ids.count)
    }
}
