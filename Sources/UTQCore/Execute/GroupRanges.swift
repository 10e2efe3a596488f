import Foundation

/// A summary over many groups (a million trips, riders or vehicles) reads its rows in their
/// order and updates each row's group: with the groups' state past the cache, nearly every
/// row is a miss. Here the rows' (group, value) pairs are first scattered by ranges of groups
/// (16,384 groups a range, their state within a core's cache), in one streaming pass split
/// over the cores; then each range is summarised on a core of its own, touching only its own
/// groups, so no two cores write the same state and nothing is merged. Rows keep their order
/// within a range, so `first`, `last` and sums come out as a pass in row order gives them.
struct GroupRanges<V> {
    /// Groups a range: 16,384 states of up to 40 bytes stay within a 1 MB cache.
    static var shift: Int { 14 }

    /// Worth it once the groups' state outgrows the cache and there are rows enough.
    static func worthIt(groups: Int, rows: Int) -> Bool { groups > 1 << 16 && rows >= 1 << 18 }

    let parts: Int
    /// Range r's pairs are `starts[r]..<starts[r + 1]`.
    let starts: [Int]
    let groupOf: [UInt32]
    let values: [V]

    /// The valid rows' groups and values, by range of groups.
    init(_ values: UnsafeBufferPointer<V>, groupOf g: UnsafeBufferPointer<Int32>, valid: Bitmap?, rows n: Int, groups: Int) {
        let shift = Self.shift
        let parts = (groups + (1 << shift) - 1) >> shift
        let workers = max(1, min(Workers.available, n >> 16))
        let chunk = (n + workers - 1) / workers
        // Each worker's count of rows per range, then where each worker writes in each range.
        var counts = [Int](repeating: 0, count: workers * parts)
        counts.withUnsafeMutableBufferPointer { c in
            Parallel.each(workers) { w in
                let base = w * parts, lo = w * chunk, hi = min(n, lo + chunk)
                guard lo < hi else { return }
                if let valid {
                    for i in lo..<hi where valid[i] { c[base + Int(g[i]) >> shift] += 1 }
                } else {
                    for i in lo..<hi { c[base + Int(g[i]) >> shift] += 1 }
                }
            }
        }
        var starts = [Int](repeating: 0, count: parts + 1)
        var cursor = [Int](repeating: 0, count: workers * parts)
        var at = 0
        for r in 0..<parts {
            starts[r] = at
            for w in 0..<workers { cursor[w * parts + r] = at; at += counts[w * parts + r] }
        }
        starts[parts] = at
        let total = at
        var outGroups = [UInt32](unsafeUninitializedCapacity: total) { _, k in k = total }
        // Filled below, every slot once (each row's slot initialised in place).
        var outValues = [V](unsafeUninitializedCapacity: total) { _, k in k = total }
        outGroups.withUnsafeMutableBufferPointer { og in outValues.withUnsafeMutableBufferPointer { ov in
            cursor.withUnsafeMutableBufferPointer { cu in
                Parallel.each(workers) { w in
                    let base = w * parts, lo = w * chunk, hi = min(n, lo + chunk)
                    guard lo < hi else { return }
                    for i in lo..<hi where valid?[i] ?? true {
                        let k = Int(g[i])
                        let slot = cu[base + k >> shift]
                        cu[base + k >> shift] = slot + 1
                        og[slot] = UInt32(truncatingIfNeeded: k)
                        (ov.baseAddress! + slot).initialize(to: values[i])
                    }
                }
            }
        } }
        self.parts = parts
        self.starts = starts
        self.groupOf = outGroups
        self.values = outValues
    }

    /// Calls `body` for each range on the cores, with the range's first group and its pairs.
    func forEachRange(_ body: (_ firstGroup: Int, _ groups: UnsafeBufferPointer<UInt32>, _ values: UnsafeBufferPointer<V>) -> Void) {
        groupOf.withUnsafeBufferPointer { g in values.withUnsafeBufferPointer { v in
            Parallel.each(parts) { r in
                let range = starts[r]..<starts[r + 1]
                body(r << Self.shift, UnsafeBufferPointer(rebasing: g[range]), UnsafeBufferPointer(rebasing: v[range]))
            }
        } }
    }

    /// Calls `body` for each range on the cores with its values placed group by group (a
    /// counting sort within the range, in the cache): group `firstGroup + l` holds
    /// `values[offsets[l]..<offsets[l + 1]]`, in row order.
    func forEachRangeByGroup(_ body: (_ firstGroup: Int, _ offsets: UnsafeBufferPointer<Int>, _ values: UnsafeMutableBufferPointer<V>) -> Void) {
        forEachRange { first, g, v in
            let width = 1 << Self.shift
            var offsets = [Int](repeating: 0, count: width + 1)
            for k in g { offsets[Int(k) - first + 1] += 1 }
            for l in 0..<width { offsets[l + 1] += offsets[l] }
            var fill = offsets
            let placed = UnsafeMutableBufferPointer<V>.allocate(capacity: g.count)
            defer { placed.deinitialize().deallocate() }
            for j in g.indices {
                let l = Int(g[j]) - first
                (placed.baseAddress! + fill[l]).initialize(to: v[j])
                fill[l] += 1
            }
            offsets.withUnsafeBufferPointer { body(first, $0, placed) }
        }
    }
}

/// A loop whose iterations run on the cores at once. The body may capture what is not
/// Sendable: each iteration must touch only what is its own.
enum Parallel {
    static func each(_ count: Int, _ body: (Int) -> Void) {
        if count == 1 { body(0); return }
        withoutActuallyEscaping(body) { body in
            let run = UnsafeSendable(body)
            DispatchQueue.concurrentPerform(iterations: count) { run.value($0) }
        }
    }
}
