/// The k-th smallest of some numbers without sorting them all (introselect: quickselect
/// with a median-of-three pivot, falling back to a sort when the pivots keep going badly),
/// for medians and percentiles. NaN counts as above every number, as in sorting.
enum Selection {
    @inline(__always) static func less(_ a: Double, _ b: Double) -> Bool { a < b || (b.isNaN && !a.isNaN) }

    /// The value a fraction of the way from `a` to `b`. An infinite end is the answer
    /// (between -inf and 1 lies -inf, as in DuckDB), and between -inf and +inf, or next
    /// to NaN, lies nothing.
    static func between(_ a: Double, _ b: Double, _ fraction: Double) -> Double {
        if fraction == 0 || a == b { return a }
        if a.isNaN || b.isNaN { return .nan }
        if a.isInfinite || b.isInfinite {
            if a.isInfinite && b.isInfinite { return .nan }
            return a.isInfinite ? a : b
        }
        return a + (b - a) * fraction
    }

    /// The values of rank `lo` and `hi` (hi is lo or lo + 1), reordering `values`.
    static func pair(_ values: UnsafeMutableBufferPointer<Double>, _ lo: Int, _ hi: Int) -> (Double, Double) {
        select(values, lo)
        let a = values[lo]
        guard hi > lo else { return (a, a) }
        // After selecting lo, everything above it is not below it: rank hi is their least.
        var b = values[hi]
        for i in (lo + 1)..<values.count where less(values[i], b) { b = values[i] }
        return (a, b)
    }

    /// Puts the value of rank `k` at position k, smaller ones before it, larger after.
    static func select(_ v: UnsafeMutableBufferPointer<Double>, _ k: Int) {
        var left = 0, right = v.count - 1
        var budget = 2 * (Int.bitWidth - v.count.leadingZeroBitCount) + 4
        while right - left > 16 {
            if budget == 0 {
                var part = UnsafeMutableBufferPointer(rebasing: v[left...right])
                part.sort(by: less)
                return
            }
            budget -= 1
            // Median of three as the pivot, moved to the left end.
            let mid = left + (right - left) / 2
            if less(v[mid], v[left]) { v.swapAt(mid, left) }
            if less(v[right], v[left]) { v.swapAt(right, left) }
            if less(v[right], v[mid]) { v.swapAt(right, mid) }
            v.swapAt(left, mid)
            let pivot = v[left]
            // Hoare partition: [left+1, i) not above the pivot, (j, right] not below it.
            var i = left + 1, j = right
            while true {
                while i <= j && less(v[i], pivot) { i += 1 }
                while i <= j && less(pivot, v[j]) { j -= 1 }
                if i >= j { break }
                v.swapAt(i, j)
                i += 1; j -= 1
            }
            v.swapAt(left, j)
            if k == j { return }
            if k < j { right = j - 1 } else { left = j + 1 }
        }
        // A few values left: insertion sort them.
        if right > left {
            for i in (left + 1)...right {
                let x = v[i]
                var j = i - 1
                while j >= left && less(x, v[j]) { v[j + 1] = v[j]; j -= 1 }
                v[j + 1] = x
            }
        }
    }
}
