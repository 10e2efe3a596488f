/// A number kept as the sum of two doubles, hi + lo, with about 32 digits: enough that the
/// products of differences from a mean (1e15 − 2/3 times 2) and their sums lose nothing a
/// double answer would show. The error-free steps are Knuth's two-sum and the fused
/// multiply-add's exact product. Past the range of doubles (or with NaN) there is no low
/// part: hi alone carries the infinity.
struct DoubleDouble {
    var hi: Double
    var lo: Double

    init(_ hi: Double, _ lo: Double = 0) { self.hi = hi; self.lo = lo }

    static let zero = DoubleDouble(0)

    var value: Double { hi.isFinite ? hi + lo : hi }

    /// a + b exactly.
    @inline(__always)
    static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        guard s.isFinite else { return DoubleDouble(s) }
        let v = s - a
        return DoubleDouble(s, (a - (s - v)) + (b - v))
    }

    /// a × b exactly: the product's rounding error is what the fused multiply-add finds.
    @inline(__always)
    static func product(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        guard p.isFinite else { return DoubleDouble(p) }
        return DoubleDouble(p, (-p).addingProduct(a, b))
    }

    /// hi and lo made canonical again (|lo| at most half a unit of hi's last place).
    @inline(__always)
    static func normalized(_ hi: Double, _ lo: Double) -> DoubleDouble {
        let s = hi + lo
        guard s.isFinite else { return DoubleDouble(s) }
        return DoubleDouble(s, lo - (s - hi))
    }

    @inline(__always)
    static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let s = sum(a.hi, b.hi)
        guard s.hi.isFinite else { return s }
        return normalized(s.hi, s.lo + a.lo + b.lo)
    }

    @inline(__always)
    static func += (a: inout DoubleDouble, b: DoubleDouble) { a = a + b }

    /// b added into a running sum over many rows: the high parts exactly, the low parts
    /// plainly, with no renormalizing between rows. The low part only gathers what each
    /// addition rounds away, so its own rounding stays far below the last place of the sum.
    @inline(__always)
    mutating func accumulate(_ b: DoubleDouble) {
        let s = hi + b.hi
        guard s.isFinite else { hi = s; lo = 0; return }
        let v = s - hi
        lo += ((hi - (s - v)) + (b.hi - v)) + b.lo
        hi = s
    }

    /// a × b for a running sum: the product of the high parts exactly, the cross terms
    /// plainly, not renormalized (accumulate takes it as it is).
    @inline(__always)
    static func times(_ a: DoubleDouble, _ b: DoubleDouble) -> DoubleDouble {
        let p = a.hi * b.hi
        guard p.isFinite else { return DoubleDouble(p) }
        return DoubleDouble(p, (-p).addingProduct(a.hi, b.hi) + (a.hi * b.lo + a.lo * b.hi))
    }

    static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(-a.hi, -a.lo) }

    static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + (-b) }

    static func * (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let p = product(a.hi, b.hi)
        guard p.hi.isFinite else { return p }
        return normalized(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi))
    }

    /// a ÷ b: the quotient of the high parts, then what is left of a divided again.
    static func / (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let q = a.hi / b.hi
        guard q.isFinite else { return DoubleDouble(q) }
        let rest = a - b * DoubleDouble(q)
        return normalized(q, rest.hi / b.hi)
    }
}
