// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

/// Angle arithmetic in degrees that stays exact where GeographicLib needs it to.
///
/// Angles are reduced exactly before they are converted to radians, so that sin(90°) is 1 and
/// the quadrants of atan2 come out with the right signed zeros; the geodesic routines rely on
/// those exact values to tell meridians, the equator and the poles apart.
enum GeodesicMath {
    static var radiansPerDegree: Double { Double.pi / 180 }
    static var degreesPerRadian: Double { 180 / Double.pi }

    @inline(__always)
    static func sq(_ x: Double) -> Double { x * x }

    /// The rounded sum and its exact rounding error: u + v = sum + error.
    @inline(__always)
    static func errorFreeSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        // A zero sum keeps its own sign rather than taking -0 from the error term.
        let t = s == 0 ? s : 0.0 - (up + vpp)
        return (s, t)
    }

    /// The unit vector along (x, y).
    @inline(__always)
    static func normalize(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }

    /// Rounds tiny angles so that they underflow to zero instead of creating near-singular
    /// cases; the grid it leaves is 1/2^57 degrees, far finer than a millimetre.
    @inline(__always)
    static func roundAngle(_ x: Double) -> Double {
        let z = 1.0 / 16.0
        var y = abs(x)
        // z - (z - y) is not y: it is y rounded to the grid of z.
        if y < z { y = z - (z - y) }
        return copysign(y, x)
    }

    /// The angle reduced to [-180, 180], keeping 180 and -180 apart by the sign of x.
    static func normalizeAngle(_ x: Double) -> Double {
        let y = remainder(x, 360)
        return abs(y) == 180 ? copysign(180, x) : y
    }

    /// The latitude, or NaN when it lies outside [-90, 90].
    @inline(__always)
    static func checkedLatitude(_ x: Double) -> Double {
        abs(x) > 90 ? .nan : x
    }

    /// y - x reduced to [-180, 180] with its rounding error, computed without losing the bits
    /// that a plain subtraction of two large longitudes would drop.
    static func angleDifference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        var (d, t) = errorFreeSum(remainder(-x, 360), remainder(y, 360))
        (d, t) = errorFreeSum(remainder(d, 360), t)
        if d == 0 || abs(d) == 180 {
            // The sign of a zero or half-turn difference says which way round it goes.
            d = copysign(d, t == 0 ? y - x : -t)
        }
        return (d, t)
    }

    /// Sine and cosine of x degrees, exact at multiples of 90°.
    static func sinCosDegrees(_ x: Double) -> (sin: Double, cos: Double) {
        var r = x.isFinite ? fmod(x, 360) : .nan
        let q = r.isNaN ? 0 : Int((r / 90).rounded(.toNearestOrEven))
        r -= 90 * Double(q)
        r *= radiansPerDegree
        return quadrantSinCos(q: q, sin(r), cos(r), signOfZeroFrom: x)
    }

    /// Sine and cosine of (x + t) degrees for x in [-180, 180] and a small correction t.
    static func sinCosDegrees(_ x: Double, plus t: Double) -> (sin: Double, cos: Double) {
        let q = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
        var r = x - 90 * Double(q)
        r = roundAngle(r + t) * radiansPerDegree
        return quadrantSinCos(q: q, sin(r), cos(r), signOfZeroFrom: x)
    }

    @inline(__always)
    private static func quadrantSinCos(q: Int, _ s: Double, _ c: Double, signOfZeroFrom x: Double) -> (sin: Double, cos: Double) {
        var sinx: Double, cosx: Double
        switch q & 3 {
        case 0: (sinx, cosx) = (s, c)
        case 1: (sinx, cosx) = (c, -s)
        case 2: (sinx, cosx) = (-s, -c)
        default: (sinx, cosx) = (-c, s)
        }
        cosx += 0.0  // cos is never -0
        if sinx == 0 { sinx = copysign(sinx, x) }
        return (sinx, cosx)
    }

    /// atan2(y, x) in degrees, computed in the octant [-45°, 45°] so that the quadrant
    /// boundaries are exact.
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var x = x, y = y
        var q = 0
        if abs(y) > abs(x) {
            q = 2
            swap(&x, &y)
        }
        if x < 0 {
            q += 1
            x = -x
        }
        var angle = atan2(y, x) * degreesPerRadian
        switch q {
        case 1: angle = copysign(180, y) - angle
        case 2: angle = 90 - angle
        case 3: angle = -90 + angle
        default: break
        }
        return angle
    }
}
