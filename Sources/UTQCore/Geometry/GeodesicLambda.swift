// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

/// The geodesic that leaves point 1 at a trial azimuth α1, followed to the latitude of point 2.
struct GeodesicLambdaSolution {
    /// The longitude it reaches less the wanted one: zero when α1 is right.
    var lam12: Double
    /// Its derivative with respect to α1 (NaN when not asked for).
    var dlam12: Double
    var salp2: Double
    var calp2: Double
    var sig12: Double
    var ssig1: Double
    var csig1: Double
    var ssig2: Double
    var csig2: Double
    var eps: Double
    /// The ellipsoidal correction to the longitude, λ12 - ω12.
    var domg12: Double
}

extension Geodesic {
    /// Follows the geodesic leaving point 1 at azimuth α1 (given as sine and cosine) to the
    /// latitude of point 2 and measures how far its longitude misses the wanted difference,
    /// given as sin λ12 and cos λ12.
    func lambda12(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                  salp1: Double, calp1: Double, slam120: Double, clam120: Double,
                  wantDerivative: Bool) -> GeodesicLambdaSolution {
        typealias M = GeodesicMath
        var calp1 = calp1
        if sbet1 == 0 && calp1 == 0 {
            // An equatorial start heading due east or west: break the degeneracy (the equatorial
            // line itself has been dealt with before).
            calp1 = -GeodesicTolerance.tiny
        }

        // sin α0 = sin α1 cos β1
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)

        // tan β1 = tan σ1 cos α1, tan ω1 = sin α0 tan σ1 (ω need not be normalized).
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        (ssig1, csig1) = M.normalize(ssig1, csig1)

        // Enforce the symmetry when |β2| = |β1| exactly, which otherwise can make the Newton
        // iteration singular. sin α2 cos β2 = sin α0.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        // cos α2 = √(cos²α0 - sin²β2) / cos β2, rearranged to keep its accuracy; α2 in [0, π/2].
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? sqrt(M.sq(calp1 * cbet1) + (cbet1 < -sbet1
                                           ? (cbet2 - cbet1) * (cbet1 + cbet2)
                                           : (sbet1 - sbet2) * (sbet1 + sbet2))) / cbet2
            : abs(calp1)
        // tan β2 = tan σ2 cos α2, tan ω2 = sin α0 tan σ2.
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        (ssig2, csig2) = M.normalize(ssig2, csig2)

        // σ12 = σ2 - σ1 and ω12 = ω2 - ω1, both in [0, π].
        let sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0.0, comg1 * somg2 - somg1 * comg2) + 0.0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω12 - λ12 (wanted)
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let k2 = M.sq(calp0) * ep2
        let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
        let c3 = series.c3(eps)
        let b312 = c3.sum(sin: ssig2, cos: csig2) - c3.sum(sin: ssig1, cos: csig1)
        let domg12 = -f * series.a3(eps) * salp0 * (sig12 + b312)
        let lam12 = eta + domg12

        var dlam12 = Double.nan
        if wantDerivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                dlam12 = reducedLength(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                       ssig2: ssig2, csig2: csig2, dn2: dn2).m12b
                dlam12 *= f1 / (calp2 * cbet2)
            }
        }
        return GeodesicLambdaSolution(lam12: lam12, dlam12: dlam12, salp2: salp2, calp2: calp2, sig12: sig12,
                              ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps, domg12: domg12)
    }

    // MARK: Lengths along a line, in units of b

    /// The distance s12 / b between σ1 and σ2 on the line of parameter eps.
    func distanceOverB(eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double) -> Double {
        let a1 = 1 + GeodesicSeries.a1m1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let b1 = c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)
        return a1 * (sig12 + b1)
    }

    /// The distance s12 / b and the reduced length m12 / b between σ1 and σ2.
    func distanceAndReducedLength(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                                  ssig2: Double, csig2: Double, dn2: Double) -> (s12b: Double, m12b: Double) {
        var a1 = GeodesicSeries.a1m1(eps)
        let c1 = GeodesicSeries.c1(eps)
        var a2 = GeodesicSeries.a2m1(eps)
        let c2 = GeodesicSeries.c2(eps)
        let m0 = a1 - a2
        a2 = 1 + a2
        a1 = 1 + a1
        let b1 = c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)
        let s12b = a1 * (sig12 + b1)
        let b2 = c2.sum(sin: ssig2, cos: csig2) - c2.sum(sin: ssig1, cos: csig1)
        let j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
        return (s12b, reducedLength(j12: j12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2))
    }

    /// The reduced length m12 / b between σ1 and σ2, and m0, the coefficient of its secular term.
    func reducedLength(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                       ssig2: Double, csig2: Double, dn2: Double) -> (m12b: Double, m0: Double) {
        var a1 = GeodesicSeries.a1m1(eps)
        let c1 = GeodesicSeries.c1(eps)
        var a2 = GeodesicSeries.a2m1(eps)
        let c2 = GeodesicSeries.c2(eps)
        let m0 = a1 - a2
        a2 = 1 + a2
        a1 = 1 + a1
        // Only the difference of the two integrals is needed, so their series are combined
        // into one and summed once at each end.
        let combined = GeodesicSeries.SineSeries6(
            c1: a1 * c1.c1 - a2 * c2.c1, c2: a1 * c1.c2 - a2 * c2.c2, c3: a1 * c1.c3 - a2 * c2.c3,
            c4: a1 * c1.c4 - a2 * c2.c4, c5: a1 * c1.c5 - a2 * c2.c5, c6: a1 * c1.c6 - a2 * c2.c6)
        let j12 = m0 * sig12 + (combined.sum(sin: ssig2, cos: csig2) - combined.sum(sin: ssig1, cos: csig1))
        return (reducedLength(j12: j12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2), m0)
    }

    @inline(__always)
    private func reducedLength(j12: Double, ssig1: Double, csig1: Double, dn1: Double,
                               ssig2: Double, csig2: Double, dn2: Double) -> Double {
        // The parentheses around csig1 * ssig2 and ssig1 * csig2 make the two cancel exactly
        // for coincident points.
        dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }
}
