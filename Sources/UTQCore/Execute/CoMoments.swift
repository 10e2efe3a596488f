/// The two-column summaries — corr, covar, covar_pop, regr_slope, regr_intercept, regr_r2 —
/// for every group, given each row's group. Only rows where both columns have a value count
/// (a pair); the first column is y and the second x, in SQL's order: regr_slope(y, x).
///
/// The sums of products are taken around each group's mean, found first (whole numbers add
/// exactly in 128 bits, others with compensation), then corrected by what the mean's own
/// rounding leaves: the corrected two-pass algorithm. Each difference from the mean, its
/// products and their sums are kept to about 32 digits (DoubleDouble), so the answer is the
/// exact one for the values as doubles, to a last place or so, even where the products
/// nearly cancel: 1e15 and −1e15 beside 1 and 2, or values near 1e9 with a spread of 1,
/// where sums of raw squares lose every digit and a plain two-pass sum some of them.
///
/// What comes out where the answer is not a number, as PostgreSQL gives it (and the SQL
/// standard asks): no pairs → null for all; one pair → null for all but covar_pop (0);
/// a column that does not vary among the pairs → corr null, and regr_slope,
/// regr_intercept and regr_r2 null when x does not vary (regr_r2 is 1 when only y does
/// not); NaN or an infinity among the pairs → NaN (past the cases that are null).
enum CoMoments {
    /// Per group: how many pairs, the means, the sums of products around them, whether a
    /// column is the same in every pair, and whether a pair holds NaN or an infinity.
    struct Moments {
        var count: [Int]
        /// The exact means, as far as 32 digits go.
        var meanY: [DoubleDouble], meanX: [DoubleDouble]
        var sxy: [DoubleDouble], sxx: [DoubleDouble], syy: [DoubleDouble]
        var constantY: [Bool], constantX: [Bool]
        var notFinite: [Bool]

        /// The same pairs with the columns the other way round.
        var swapped: Moments {
            Moments(count: count, meanY: meanX, meanX: meanY, sxy: sxy, sxx: syy, syy: sxx,
                    constantY: constantX, constantX: constantY, notFinite: notFinite)
        }
    }

    /// The moments of the pairs one stage has found, so `regr_slope(y, x), regr_intercept(y, x),
    /// corr(x, y)` go over the rows once.
    final class Cache {
        private var found: [String: Moments] = [:]

        func moments(_ a: BoundAggregate, make: () -> Moments) -> Moments {
            let (y, x) = (a.argument?.describe ?? "", a.second?.describe ?? "")
            if let m = found[y + "\u{1}" + x] { return m }
            if let m = found[x + "\u{1}" + y] { return m.swapped }
            let m = make()
            found[y + "\u{1}" + x] = m
            return m
        }
    }

    static func run(_ a: BoundAggregate, y: Column, x: Column, groupOf: [Int32], groups: Int, rows n: Int, cache: Cache? = nil) -> Column {
        if case .null = y.storage { return Column.constant(.null, type: .double, count: groups, name: a.name) }
        if case .null = x.storage { return Column.constant(.null, type: .double, count: groups, name: a.name) }
        let make = { moments(y: y, x: x, groupOf: groupOf, groups: groups, rows: n) }
        let m = cache?.moments(a, make: make) ?? make()
        var out = [Double](repeating: 0, count: groups)
        var has = Bitmap(count: groups, value: false)
        for g in 0..<groups {
            if let v = finish(a.function, m, g) { out[g] = v; has[g] = true }
        }
        return Column(name: a.name, storage: .double(out), validity: has)
    }

    /// One group's answer, or nil for null.
    static func finish(_ f: AggregateFunction, _ m: Moments, _ g: Int) -> Double? {
        let n = m.count[g]
        if f == .covarPop {
            guard n >= 1 else { return nil }
            return m.notFinite[g] ? .nan : m.sxy[g].value / Double(n)
        }
        guard n >= 2 else { return nil }
        if m.notFinite[g] { return .nan }
        let (sxy, sxx, syy) = (m.sxy[g].value, m.sxx[g].value, m.syy[g].value)
        // A correlation is between -1 and 1; rounding may put a perfect one a last place past.
        func r() -> Double { Swift.min(1, Swift.max(-1, sxy / (sxx.squareRoot() * syy.squareRoot()))) }
        switch f {
        case .covar:
            return sxy / Double(n - 1)
        case .corr:
            if m.constantX[g] || m.constantY[g] || sxx <= 0 || syy <= 0 { return nil }
            return r()
        case .regrSlope:
            if m.constantX[g] || sxx <= 0 { return nil }
            return sxy / sxx
        case .regrIntercept:
            // The mean of y less the slope times the mean of x, which may nearly cancel:
            // all of it to 32 digits.
            if m.constantX[g] || sxx <= 0 { return nil }
            return (m.meanY[g] - (m.sxy[g] / m.sxx[g]) * m.meanX[g]).value
        case .regrR2:
            if m.constantX[g] || sxx <= 0 { return nil }
            if m.constantY[g] || syy <= 0 { return 1 }
            let v = r()
            return v * v
        default:
            return nil
        }
    }

    static func moments(y: Column, x: Column, groupOf: [Int32], groups: Int, rows n: Int) -> Moments {
        // A pair is a row where both have a value.
        var both: Bitmap? = nil
        switch (y.validity, x.validity) {
        case (nil, nil): both = nil
        case (let v?, nil), (nil, let v?): both = v
        case (let v?, let w?):
            var b = Bitmap(count: n, value: false)
            for i in 0..<n where v[i] && w[i] { b[i] = true }
            both = b
        }
        let my = means(y, both, groupOf, groups, n)
        let mx = means(x, both, groupOf, groups, n)
        let ys = Accumulate.rawDoubles(y), xs = Accumulate.rawDoubles(x)
        var sums = [PairSums](repeating: PairSums(), count: groups)
        var notFinite = [Bool](repeating: false, count: groups)
        ys.withUnsafeBufferPointer { yv in xs.withUnsafeBufferPointer { xv in groupOf.withUnsafeBufferPointer { gr in
            my.mean.withUnsafeBufferPointer { meanY in mx.mean.withUnsafeBufferPointer { meanX in
                sums.withUnsafeMutableBufferPointer { s in notFinite.withUnsafeMutableBufferPointer { bad in
                    @inline(__always) func add(_ i: Int) {
                        let g = Int(gr[i])
                        let (u, v) = (yv[i], xv[i])
                        if !u.isFinite || !v.isFinite { bad[g] = true; return }
                        // The differences exactly (two doubles each), their products to 32 digits.
                        s[g].add(DoubleDouble.sum(u, -meanY[g]), DoubleDouble.sum(v, -meanX[g]))
                    }
                    if let both { for i in 0..<n where both[i] { add(i) } } else { for i in 0..<n { add(i) } }
                } }
            } }
        } } }
        let sxy = sums.map(\.xy), sxx = sums.map(\.xx), syy = sums.map(\.yy), ex = sums.map(\.x), ey = sums.map(\.y)
        var m = Moments(count: my.count, meanY: my.mean.map { DoubleDouble($0) }, meanX: mx.mean.map { DoubleDouble($0) },
                        sxy: sxy, sxx: sxx, syy: syy, constantY: my.constant, constantX: mx.constant, notFinite: notFinite)
        for g in 0..<groups where m.count[g] > 0 && !notFinite[g] {
            // The differences from a mean that is a last place off add up to a little more
            // than zero: what that adds to each sum is taken back out, and to the mean.
            let k = DoubleDouble(Double(m.count[g]))
            let (dx, dy) = (ex[g] / k, ey[g] / k)
            m.meanX[g] += dx; m.meanY[g] += dy
            m.sxy[g] = m.constantX[g] || m.constantY[g] ? .zero : sxy[g] - ex[g] * dy
            m.sxx[g] = m.constantX[g] ? .zero : sxx[g] - ex[g] * dx
            m.syy[g] = m.constantY[g] ? .zero : syy[g] - ey[g] * dy
            if m.sxx[g].hi < 0 { m.sxx[g] = .zero }
            if m.syy[g].hi < 0 { m.syy[g] = .zero }
        }
        return m
    }

    /// One group's running sums around the means: of the products and of the differences.
    struct PairSums {
        var xy = DoubleDouble.zero, xx = DoubleDouble.zero, yy = DoubleDouble.zero
        var x = DoubleDouble.zero, y = DoubleDouble.zero

        @inline(__always)
        mutating func add(_ dy: DoubleDouble, _ dx: DoubleDouble) {
            xy.accumulate(.times(dx, dy)); xx.accumulate(.times(dx, dx)); yy.accumulate(.times(dy, dy))
            x.accumulate(dx); y.accumulate(dy)
        }
    }

    /// Each group's count of pairs, the mean of one column over them, and whether the
    /// column is one value throughout (then that value is the mean, exactly).
    static func means(_ c: Column, _ both: Bitmap?, _ groupOf: [Int32], _ groups: Int, _ n: Int)
        -> (count: [Int], mean: [Double], constant: [Bool]) {
        var count = [Int](repeating: 0, count: groups)
        var mean = [Double](repeating: 0, count: groups)
        var constant = [Bool](repeating: false, count: groups)
        switch c.storage {
        case .int(let v):
            let (sums, _) = Accumulate.fold(v, groupOf, both, n, groups, (Int128(0), 0, Int64.max, Int64.min),
                                            merge: { $0.0 += $1.0; $0.1 += $1.1; $0.2 = Swift.min($0.2, $1.2); $0.3 = Swift.max($0.3, $1.3) }) {
                $0.0 += Int128($1); $0.1 += 1; $0.2 = Swift.min($0.2, $1); $0.3 = Swift.max($0.3, $1)
            }
            for g in 0..<groups where sums[g].1 > 0 {
                count[g] = sums[g].1
                constant[g] = sums[g].2 == sums[g].3
                // The mean as the values are seen below: as doubles (past 2^53, rounded).
                mean[g] = constant[g] ? Double(sums[g].2) : Accumulate.divide(sums[g].0, count[g])
            }
        default:
            let values = Accumulate.rawDoubles(c)
            let (sums, _) = Accumulate.fold(values, groupOf, both, n, groups, (CompensatedSum(), 0, Double.infinity, -Double.infinity),
                                            merge: { $0.0.merge($1.0); $0.1 += $1.1; $0.2 = Swift.min($0.2, $1.2); $0.3 = Swift.max($0.3, $1.3) }) {
                $0.0.add($1); $0.1 += 1; $0.2 = Swift.min($0.2, $1); $0.3 = Swift.max($0.3, $1)
            }
            for g in 0..<groups where sums[g].1 > 0 {
                count[g] = sums[g].1
                constant[g] = sums[g].2 == sums[g].3
                mean[g] = constant[g] ? sums[g].2 : sums[g].0.value / Double(count[g])
            }
        }
        return (count, mean, constant)
    }
}
