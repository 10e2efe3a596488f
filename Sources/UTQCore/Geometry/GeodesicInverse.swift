// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

/// The shortest path between two points: its length, its azimuths as sines and cosines, and
/// (when asked) the area between it and the equator.
struct GeodesicInverseSolution {
    /// Length in metres.
    var distance: Double
    /// Azimuths at the start (1) and at the end (2), as unnormalized sine and cosine.
    var salp1: Double
    var calp1: Double
    var salp2: Double
    var calp2: Double
    /// S12, the area in square metres between the geodesic and the equator, positive when the
    /// equator lies to the right going from 1 to 2 (NaN unless asked for).
    var area: Double
}

extension Geodesic {
    /// Solves the inverse problem: the geodesic from (lat1, lon1) to (lat2, lon2).
    ///
    /// The points are first brought to a canonical form (0 ≤ lon12 ≤ 180, lat1 ≤ 0,
    /// lat1 ≤ lat2 ≤ -lat1) so that few cases remain; the signs that did it are applied back at
    /// the end, which also makes the results exactly symmetric. Meridians and the equator are
    /// solved directly, very short lines on the auxiliary sphere, and the rest by Newton's method
    /// on the azimuth at the start, bracketed so that it always converges.
    func solveInverse(lat1: Double, lon1: Double, lat2: Double, lon2: Double, withArea: Bool) -> GeodesicInverseSolution {
        typealias M = GeodesicMath
        typealias T = GeodesicTolerance

        // lon12 in [-180, 180], -180 only for west-going lines; its rounding error kept apart.
        var (lon12, lon12s) = M.angleDifference(lon1, lon2)
        var lonSign: Double = copysign(1, lon12)
        lon12 *= lonSign
        lon12s *= lonSign
        let lam12 = lon12 * M.radiansPerDegree
        let (slam12, clam12) = M.sinCosDegrees(lon12, plus: lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplementary longitude difference

        // Latitudes within about a picometre of the equator are taken to be on it.
        var lat1 = M.roundAngle(M.checkedLatitude(lat1))
        var lat2 = M.roundAngle(M.checkedLatitude(lat2))
        // Point 1 is the one farther from the equator (or the one whose latitude is NaN).
        let swapSign: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapSign < 0 {
            lonSign *= -1
            swap(&lat1, &lat2)
        }
        let latSign: Double = copysign(1, -lat1)
        lat1 *= latSign
        lat2 *= latSign

        // Reduced latitudes β, with cos β kept positive at the poles.
        var (sbet1, cbet1) = M.sinCosDegrees(lat1)
        sbet1 *= f1
        (sbet1, cbet1) = M.normalize(sbet1, cbet1)
        cbet1 = max(T.tiny, cbet1)
        var (sbet2, cbet2) = M.sinCosDegrees(lat2)
        sbet2 *= f1
        (sbet2, cbet2) = M.normalize(sbet2, cbet2)
        cbet2 = max(T.tiny, cbet2)

        // When |β2| = |β1| up to round-off, make it exact: the Newton iteration for the azimuth
        // is singular there unless the symmetry holds exactly. cos β is the sensitive measure
        // near the poles, sin β elsewhere.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }

        let dn1 = sqrt(1 + ep2 * M.sq(sbet1))
        let dn2 = sqrt(1 + ep2 * M.sq(sbet2))

        var s12x = Double.nan
        var salp1 = Double.nan, calp1 = Double.nan, salp2 = Double.nan, calp2 = Double.nan
        var meridian = lat1 == -90 || slam12 == 0

        if meridian {
            // Both points on one full meridian: the meridian itself may be the shortest path.
            calp1 = clam12
            salp1 = slam12  // head for the other longitude
            calp2 = 1
            salp2 = 0       // and arrive heading north
            // tan β = tan σ cos α
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
            let lengths = distanceAndReducedLength(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                                   ssig2: ssig2, csig2: csig2, dn2: dn2)
            s12x = lengths.s12b
            let m12x = lengths.m12b
            // A negative reduced length means the meridian runs past a conjugate point and is not
            // the shortest path (prolate ellipsoids near the antipode); a very short line may show
            // a tiny negative one from round-off.
            if sig12 < T.sqrtEpsilon || m12x >= 0 {
                if sig12 < 3 * T.tiny || (sig12 < T.epsilon && (s12x < 0 || m12x < 0)) {
                    s12x = 0
                }
                s12x *= b
            } else {
                meridian = false
            }
        }

        // ω12, the longitude difference on the auxiliary sphere, for the area; sin ω12 = 2 marks
        // it as not yet known.
        var somg12 = 2.0, comg12 = 0.0, omg12 = 0.0
        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator (for an oblate ellipsoid, only while it is shorter than going
            // over the pole: the test mirrors what the iteration would find with cos α1 = 0).
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
            omg12 = lam12 / f1
        } else if !meridian {
            let start = inverseStart(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                     lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // A short line, solved on the auxiliary sphere with the mean-latitude scale.
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = start.sig12 * b * start.dnm
                omg12 = lam12 / (f1 * start.dnm)
            } else {
                let solved = solveAzimuth(salp1: salp1, calp1: calp1, sbet1: sbet1, cbet1: cbet1, dn1: dn1,
                                          sbet2: sbet2, cbet2: cbet2, dn2: dn2, slam12: slam12, clam12: clam12)
                let lambda = solved.lambda
                salp1 = solved.salp1
                calp1 = solved.calp1
                salp2 = lambda.salp2
                calp2 = lambda.calp2
                s12x = distanceOverB(eps: lambda.eps, sig12: lambda.sig12, ssig1: lambda.ssig1, csig1: lambda.csig1,
                                     ssig2: lambda.ssig2, csig2: lambda.csig2) * b
                if withArea {
                    // ω12 = λ12 - Δω12
                    let sdomg12 = sin(lambda.domg12), cdomg12 = cos(lambda.domg12)
                    somg12 = slam12 * cdomg12 - clam12 * sdomg12
                    comg12 = clam12 * cdomg12 + slam12 * sdomg12
                }
            }
        }

        let distance = 0.0 + s12x  // never -0
        var area = Double.nan
        if withArea {
            area = areaToEquator(sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                                 salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2,
                                 meridian: meridian, somg12: somg12, comg12: comg12, omg12: omg12)
            area *= swapSign * lonSign * latSign
            area += 0.0
        }

        // Undo the canonical form.
        if swapSign < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapSign * lonSign
        calp1 *= swapSign * latSign
        salp2 *= swapSign * lonSign
        calp2 *= swapSign * latSign

        return GeodesicInverseSolution(distance: distance,
                                       salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2, area: area)
    }

    /// Newton's method on the azimuth α1 at the start, solving λ12(α1) = λ12 for the given
    /// longitude difference.
    ///
    /// λ12 - λ has exactly one root in (0, π) with a positive slope there, so a bracket of it is
    /// kept and narrowed at every step; whenever a Newton step would leave (0, π) or the slope
    /// is not positive, the next guess is the middle of the bracket. WGS 84 never needs that
    /// fallback, but more eccentric ellipsoids do.
    private func solveAzimuth(salp1: Double, calp1: Double, sbet1: Double, cbet1: Double, dn1: Double,
                              sbet2: Double, cbet2: Double, dn2: Double,
                              slam12: Double, clam12: Double) -> (salp1: Double, calp1: Double, lambda: GeodesicLambdaSolution) {
        typealias T = GeodesicTolerance
        var salp1 = salp1, calp1 = calp1
        var salp1a = T.tiny, calp1a = 1.0, salp1b = T.tiny, calp1b = -1.0
        var tripNewton = false, tripBisection = false
        var iteration = 0
        while true {
            let lambda = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                  salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                                  wantDerivative: iteration < T.newtonIterations)
            let v = lambda.lam12
            // Written so that a NaN ends the loop.
            if tripBisection || !(abs(v) >= (tripNewton ? 8 : 1) * T.epsilon) || iteration == T.maximumIterations {
                return (salp1, calp1, lambda)
            }
            // Narrow the bracket.
            if v > 0 && (iteration > T.newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1
                calp1b = calp1
            } else if v < 0 && (iteration > T.newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1
                calp1a = calp1
            }
            let dv = lambda.dlam12
            if iteration < T.newtonIterations && dv > 0 {
                let dalp1 = -v / dv
                if abs(dalp1) < Double.pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        salp1 = nsalp1
                        (salp1, calp1) = GeodesicMath.normalize(salp1, calp1)
                        // Where the slope tends to zero convergence is not quadratic, so the
                        // test goes by epsilon rather than its square root.
                        tripNewton = abs(v) <= 16 * T.epsilon
                        iteration += 1
                        continue
                    }
                }
            }
            // Bisect.
            salp1 = (salp1a + salp1b) / 2
            calp1 = (calp1a + calp1b) / 2
            (salp1, calp1) = GeodesicMath.normalize(salp1, calp1)
            tripNewton = false
            tripBisection = abs(salp1a - salp1) + (calp1a - calp1) < T.epsilon
                || abs(salp1 - salp1b) + (calp1 - calp1b) < T.epsilon
            iteration += 1
        }
    }
}
