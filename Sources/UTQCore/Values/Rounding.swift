import Foundation

/// Rounding to digits on a number's binary value, half away from zero: 1.005 is a little less
/// than 1.005 as a double, so it rounds to 1.00; -3.8015 is a little more than -3.8015, so it
/// rounds to -3.801. Scaling first (x × 10^d, then rounding) would round the already-rounded
/// product instead; here the product's rounding error, taken exactly with a fused
/// multiply-add, decides the cases the rounded product cannot.
enum Rounding {
    static func halfAway(_ x: Double, digits d: Int) -> Double {
        guard x.isFinite, x != 0 else { return x }
        let a = Swift.abs(x)
        // The scale below is exact to 10^22. Finer places matter only to the smallest numbers
        // (6e-24 to 23 places is 1e-23): printf writes the binary value's exact decimals
        // rounded there, and a tie cannot happen (half of 10^-d is no binary fraction).
        guard d <= 22 else {
            guard a < 1 else { return x }
            return Double(String(format: "%.\(Swift.min(d, 400))f", x)) ?? x
        }
        guard d >= -22 else { return 0 * x }
        let scale = Foundation.pow(10, Double(Swift.abs(d)))
        // a × 10^d (or a / 10^-d) is exactly p + err; only err's sign is needed.
        let p: Double, err: Double
        if d >= 0 {
            p = a * scale
            err = (-p).addingProduct(a, scale)
        } else {
            p = a / scale
            err = a.addingProduct(-p, scale)
        }
        // At 2^52 and above p is a whole number and x has no digit at that place to round.
        guard p < 4_503_599_627_370_496 else { return x }
        let q = p.rounded(.down)
        // Exact: p − q and 0.5 are both multiples of p's last place; past it, err decides.
        let past = (p - q) - 0.5
        let up = past > 0 || (past == 0 && err >= 0)
        let whole = up ? q + 1 : q
        let r = d >= 0 ? whole / scale : whole * scale
        return x < 0 ? -r : r
    }
}
