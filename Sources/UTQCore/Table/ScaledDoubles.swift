import CIntrinsics

/// A number column's values as whole numbers of 32 bits over one power of ten (52.39726 as
/// 5239726 over 10^5; a price of 12.50 as 1250 over 100), for a gather that reads them at
/// random many times over. A join of a hundred million rows against ten million reads the
/// right side's values once a row, at random: as doubles they are 80 MB, past this machine's
/// 32 MB last cache, and as these 40 MB, most of which stays in it (a gather in C on two
/// cores: 1.04-1.08 ns a row against 1.29-1.36; from 8 MB both 0.76-0.80).
///
/// Made only when every value comes back with the same bits (`Double(n) / 10^d` is how a
/// decimal read from text was rounded, so numbers read from files of prices, distances and
/// coordinates do), so what is gathered is the column's own values.
struct ScaledDoubles: NarrowValues {
    let values: [Int32]
    /// 10^places.
    let divisor: Double

    /// `a`'s values (those at `order`, in its order, when given) scaled; nil when one is not a
    /// decimal of at most nine places whose digits fit in 32 bits (a third, NaN, -0.0, 3e9).
    static func make(_ a: [Double], order: [Int32]? = nil, parts: Int) -> ScaledDoubles? {
        guard (order?.count ?? a.count) > 0, var places = places(a) else { return nil }
        // The places come from a sample; a value the sample missed that needs more says how
        // many, and the values are scaled once more by those.
        while true {
            switch scaled(a, order: order, places: places, parts: parts) {
            case .made(let copy): return copy
            case .needs(let more) where more > places && more <= 9: places = more
            case .needs: return nil
            }
        }
    }

    private enum Outcome { case made(ScaledDoubles), needs(Int) }

    /// The values scaled by 10^places, or the most places a value that did not come back needs
    /// (more than nine when one never does; no more than `places` when one's digits do not fit).
    private static func scaled(_ a: [Double], order: [Int32]?, places: Int, parts: Int) -> Outcome {
        let n = order?.count ?? a.count
        var divisor = 1.0
        for _ in 0..<places { divisor *= 10 }
        let d = divisor
        // Each stretch says the most places a value that did not come back needs; -1 for none.
        let (values, needs) = a.withUnsafeBufferPointer { src in
            filledOnCores(n, parts: parts, none: -1) { (out: UnsafeMutableBufferPointer<Int32>, range) in
                var most = -1
                @inline(__always) func put(_ i: Int, _ v: Double) {
                    let (x, wrong) = scaled(v, d)
                    out[i] = x
                    if wrong { most = max(most, Self.places(of: v) ?? 10) }
                }
                if let order {
                    order.withUnsafeBufferPointer { order in
                        let ahead = Prefetch.rows
                        for i in range {
                            if i + ahead < range.upperBound { utq_prefetch_read(src.baseAddress! + Int(order[i + ahead])) }
                            put(i, src[Int(order[i])])
                        }
                    }
                } else {
                    for i in range { put(i, src[i]) }
                }
                return most
            }
        }
        let most = needs.max() ?? -1
        return most < 0 ? .made(ScaledDoubles(values: values, divisor: divisor)) : .needs(most)
    }

    /// `v` times `divisor` as a whole number, and whether it does not give `v` back.
    @inline(__always)
    static func scaled(_ v: Double, _ divisor: Double) -> (Int32, Bool) {
        let x = (v * divisor).rounded()
        guard x.magnitude <= Double(Int32.max) else { return (0, true) }  // NaN too
        let n = Int32(x)
        return (n, (Double(n) / divisor).bitPattern != v.bitPattern)
    }

    /// The places one value needs; nil past nine.
    static func places(of v: Double) -> Int? {
        var divisor = 1.0
        for p in 0...9 {
            if !scaled(v, divisor).1 { return p }
            divisor *= 10
        }
        return nil
    }

    /// The places the values need, from a sample spread over the column; nil when one of
    /// them needs more than nine.
    static func places(_ a: [Double]) -> Int? {
        let step = max(1, a.count / 512)
        var most = 0
        for i in stride(from: 0, to: a.count, by: step) {
            guard let p = places(of: a[i]) else { return nil }
            most = max(most, p)
        }
        return most
    }

    /// Values of a number column.
    func storage(_ values: [Double], like c: Column) -> Column.Storage { .double(values) }

    /// The column's value of a stored one.
    @inline(__always)
    func decode(_ stored: Int32) -> Double { Double(stored) / divisor }
}
