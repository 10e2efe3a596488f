import CIntrinsics
import Foundation

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
            let rank = s.codes.through(ranks)
            return { i, j in
                if let n = nulls(i, j) { return n }
                let x = rank[i], y = rank[j]
                return x == y ? 0 : (x < y ? -1 : 1)
            }
        case .geometry(let g):
            let ranks = g.ranks()
            return { i, j in nulls(i, j) ?? (ranks[i] == ranks[j] ? 0 : (ranks[i] < ranks[j] ? -1 : 1)) }
        case .null:
            return { _, _ in 0 }
        }
    }

    /// The order of `count` rows by the columns, each up or down. With a limit only
    /// that many first rows are ordered and returned (`sort … | top N`).
    ///
    /// Each column becomes one unsigned 64-bit key per row whose order is the value
    /// order (reversed for down), so a full sort is a stable radix sort, last column
    /// first, over the key bytes that differ at all; a dictionary-coded legend takes
    /// one pass. Nulls are moved last after each column's passes, keeping the order
    /// the later columns gave them. Ties keep their original order throughout.
    static func order(_ columns: [Column], descending: [Bool], count: Int, limit: Int? = nil,
                      cancel: CancellationFlag? = nil, cutFirstKey: Bool = true) throws -> [Int32] {
        let wanted = min(limit ?? count, count)
        if columns.isEmpty || count < 2 { return (0..<wanted).map { Int32($0) } }
        // A few rows out of many: only rows whose first key reaches the few best first keys
        // can be among them; those rows alone are ordered by all the keys.
        if cutFirstKey, wanted <= 100_000 && wanted < count / 8,
           let candidates = try FirstKeyCut.rows(columns[0], descending: descending[0], count: count, wanted: wanted, cancel: cancel) {
            let order = try Sorting.order(columns.map { $0.gather(candidates) }, descending: descending, count: candidates.count,
                                          limit: wanted, cancel: cancel, cutFirstKey: false)
            return order.map { candidates[Int($0)] }
        }
        let keys = try zip(columns, descending).map { try SortKey($0, descending: $1, count: count, cancel: cancel) }
        // A few rows out of many: keep the best ones seen in a heap (n log k).
        if wanted <= 100_000 && wanted < count / 8 {
            return try TopRows(keys: keys, size: wanted).run(count: count, cancel: cancel)
        }
        var rows = (0..<count).map { Int32($0) }
        var scratch = [Int32](repeating: 0, count: count)
        for key in keys.reversed() {
            try radixSort(&rows, &scratch, by: key.values, cancel: cancel)
            if let valid = key.valid { rows = stablyValidFirst(rows, valid) }
        }
        if wanted < count { rows.removeSubrange(wanted...) }
        return rows
    }

    /// One column as order-preserving unsigned keys; nulls get 0 and are moved later.
    struct SortKey {
        var values: [UInt64]
        var valid: Bitmap?

        init(_ c: Column, descending: Bool, count: Int, cancel: CancellationFlag?) throws {
            valid = c.validity
            let flip: UInt64 = descending ? ~0 : 0
            switch c.storage {
            case .int(let a), .timestamp(let a), .duration(let a):
                values = a.map { (UInt64(bitPattern: $0) ^ (1 << 63)) ^ flip }
            case .double(let a):
                values = a.map { d in
                    // One NaN above every number; -0 equal to 0.
                    let x = d.isNaN ? Double.nan : (d == 0 ? 0 : d)
                    let bits = x.bitPattern
                    return (bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)) ^ flip
                }
            case .bool(let a):
                values = a.map { ($0 ? 1 : 0) ^ flip }
            case .string(let s):
                let ranks = try s.ranks(cancel: cancel)
                values = s.codes.through(ranks.map { UInt64(UInt32(bitPattern: $0)) ^ flip })
            case .geometry(let g):
                values = g.ranks().map { UInt64($0) ^ flip }
            case .null:
                values = [UInt64](repeating: 0, count: count)
                valid = nil
            }
            if let v = valid {
                if v.allSet { valid = nil } else {
                    // Nulls tie with each other, whatever lies under them.
                    for i in 0..<count where !v[i] { values[i] = 0 }
                }
            }
        }

        /// Row i before row j on this column alone: -1, 0 or 1, nulls last.
        @inline(__always) func compare(_ i: Int, _ j: Int) -> Int {
            if let v = valid {
                let a = v[i], b = v[j]
                if a != b { return a ? -1 : 1 }
                if !a { return 0 }
            }
            let x = values[i], y = values[j]
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// Stable least-significant-digit radix sort of `rows` by `keys[row]`, skipping
    /// bytes that are the same in every key.
    static func radixSort(_ rows: inout [Int32], _ scratch: inout [Int32], by keys: [UInt64],
                          cancel: CancellationFlag?) throws {
        let n = rows.count
        let workers = n >= 1 << 20 ? max(1, Workers.available) : 1
        let chunk = (n + workers - 1) / workers
        // The keys in the rows' order, and the bits that differ among them, on the cores: after
        // the first column's passes the rows are in another order, and each key is a read at
        // random (on one core this was an eighth of sorting 10M rows by two columns).
        var differs = [UInt64](repeating: 0, count: workers)
        var current = [UInt64](unsafeUninitializedCapacity: n) { out, made in
            keys.withUnsafeBufferPointer { ks in
                rows.withUnsafeBufferPointer { rs in
                    differs.withUnsafeMutableBufferPointer { differs in
                        let first = ks[Int(rs[0])]
                        Parallel.each(workers) { w in
                            let hi = min(n, (w + 1) * chunk)
                            var d: UInt64 = 0
                            for i in (w * chunk)..<hi {
                                if i + 64 < hi { utq_prefetch_read(ks.baseAddress! + Int(rs[i + 64])) }
                                let k = ks[Int(rs[i])]
                                out[i] = k
                                d |= k ^ first
                            }
                            differs[w] = d
                        }
                    }
                }
            }
            made = n
        }
        let differing = differs.reduce(0, |)
        if differing == 0 { return }
        var keyScratch = [UInt64](unsafeUninitializedCapacity: n) { _, made in made = n }
        // Each pass on every core: each worker counts its stretch's digits, the stretches'
        // places follow one another within a digit (so the pass stays stable), and each
        // worker scatters its own stretch.
        for shift in stride(from: 0, to: 64, by: 8) where (differing >> UInt64(shift)) & 0xFF != 0 {
            if cancel?.isCancelled == true { throw CancellationError() }
            var offsets = [Int](repeating: 0, count: 256 * workers)
            current.withUnsafeBufferPointer { ks in
                offsets.withUnsafeMutableBufferPointer { off in
                    Parallel.each(workers) { w in
                        let base = w * 256
                        for i in (w * chunk)..<min(n, (w + 1) * chunk) { off[base + Int((ks[i] >> UInt64(shift)) & 0xFF)] += 1 }
                    }
                }
            }
            var total = 0
            for b in 0..<256 {
                for w in 0..<workers { let c = offsets[w * 256 + b]; offsets[w * 256 + b] = total; total += c }
            }
            current.withUnsafeBufferPointer { ks in
                rows.withUnsafeBufferPointer { rs in
                    keyScratch.withUnsafeMutableBufferPointer { ko in
                        scratch.withUnsafeMutableBufferPointer { ro in
                            offsets.withUnsafeMutableBufferPointer { off in
                                Parallel.each(workers) { w in
                                    let base = w * 256
                                    for i in (w * chunk)..<min(n, (w + 1) * chunk) {
                                        let k = ks[i]
                                        let b = base + Int((k >> UInt64(shift)) & 0xFF)
                                        let at = off[b]
                                        off[b] = at + 1
                                        ko[at] = k
                                        ro[at] = rs[i]
                                    }
                                }
                            }
                        }
                    }
                }
            }
            swap(&current, &keyScratch)
            swap(&rows, &scratch)
        }
    }

    static func stablyValidFirst(_ rows: [Int32], _ valid: Bitmap) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(rows.count)
        for r in rows where valid[Int(r)] { out.append(r) }
        for r in rows where !valid[Int(r)] { out.append(r) }
        return out
    }

    /// The first `size` rows in key order, kept in a heap whose top is the worst kept.
    struct TopRows {
        let keys: [SortKey]
        let size: Int

        @inline(__always) func before(_ a: Int32, _ b: Int32) -> Bool {
            let i = Int(a), j = Int(b)
            for k in keys {
                let r = k.compare(i, j)
                if r != 0 { return r < 0 }
            }
            return a < b
        }

        /// Each core keeps the best of a stretch of rows; the best of their bests are the
        /// answer (ties go to the earlier row everywhere, so the order is the same).
        func run(count: Int, cancel: CancellationFlag?) throws -> [Int32] {
            if size == 0 { return [] }
            let workers = count >= 1 << 20 ? Workers.available : 1
            guard workers > 1 else { return try best(0..<count, cancel: cancel).sorted(by: before) }
            let parts = ParallelParts<[Int32]>(count: workers)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                parts.set(w, Result { try best(count * w / workers ..< count * (w + 1) / workers, cancel: cancel) })
            }
            var all: [Int32] = []
            for w in 0..<workers { all += try parts.own(w).get() }
            all.sort(by: before)
            return Array(all.prefix(size))
        }

        func best(_ rows: Range<Int>, cancel: CancellationFlag?) throws -> [Int32] {
            var heap: [Int32] = []
            heap.reserveCapacity(size)
            for r in Int32(rows.lowerBound)..<Int32(rows.upperBound) {
                if r & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                if heap.count < size {
                    heap.append(r)
                    siftUp(&heap, heap.count - 1)
                } else if before(r, heap[0]) {
                    heap[0] = r
                    siftDown(&heap, 0)
                }
            }
            return heap
        }

        private func siftUp(_ h: inout [Int32], _ start: Int) {
            var i = start
            while i > 0 {
                let parent = (i - 1) / 2
                if !before(h[parent], h[i]) { break }
                h.swapAt(parent, i)
                i = parent
            }
        }

        private func siftDown(_ h: inout [Int32], _ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var worst = i
                if l < h.count && before(h[worst], h[l]) { worst = l }
                if r < h.count && before(h[worst], h[r]) { worst = r }
                if worst == i { return }
                h.swapAt(i, worst)
                i = worst
            }
        }
    }
}
