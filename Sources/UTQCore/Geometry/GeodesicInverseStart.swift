// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

/// The first guess at the azimuth at point 1; for a short line, the whole solution.
struct GeodesicInverseStart {
    /// Arc length of a short line solved outright, or -1 when Newton's method must go on.
    var sig12: Double
    var salp1: Double
    var calp1: Double
    /// Azimuth at point 2, for a short line only.
    var salp2: Double
    var calp2: Double
    /// The scale of the auxiliary sphere at the mean latitude, for a short line only.
    var dnm: Double
}

extension Geodesic {
    /// Guesses α1 from the great circle on the auxiliary sphere, or, for nearly antipodal points
    /// where that guess is poor, from the astroid that the solution approaches there (section 5
    /// of Karney's paper). A line short enough is solved outright.
    func inverseStart(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                      lam12: Double, slam12: Double, clam12: Double) -> GeodesicInverseStart {
        typealias M = GeodesicMath
        typealias T = GeodesicTolerance
        var result = GeodesicInverseStart(sig12: -1, salp1: .nan, calp1: .nan, salp2: .nan, calp2: .nan, dnm: .nan)
        // β12 = β2 - β1 in [0, π); β12a = β2 + β1 in (-π, 0]
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        var sbet12a = sbet2 * cbet1
        sbet12a += cbet2 * sbet1

        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortLine {
            // sin²((β1 + β2) / 2), for the scale of the sphere at the mean latitude.
            var sbetm2 = M.sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + M.sq(cbet1 + cbet2)
            result.dnm = sqrt(1 + ep2 * sbetm2)
            let omg12 = lam12 / (f1 * result.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * M.sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)

        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortLine && ssig12 < shortLineThreshold {
            // Really short: the great circle on the auxiliary sphere is the answer.
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? M.sq(somg12) / (1 + comg12) : 1 - comg12)
            (salp2, calp2) = M.normalize(salp2, calp2)
            result.salp2 = salp2
            result.calp2 = calp2
            result.sig12 = atan2(ssig12, csig12)
        } else if abs(n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * Double.pi * M.sq(cbet1) {
            // The spherical guess is good enough (or the ellipsoid too eccentric for the astroid).
        } else {
            // Nearly antipodal. Scale λ12 and β2 to coordinates (x, y) in which the antipode is
            // the origin and the singular point is at y = 0, x = -1.
            let lam12x = atan2(-slam12, -clam12)  // λ12 - π
            let x: Double, y: Double, lamscale: Double
            if f >= 0 {
                // x along the longitude, y along the latitude
                let k2 = M.sq(sbet1) * ep2
                let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
                lamscale = f * cbet1 * series.a3(eps) * Double.pi
                let betscale = lamscale * cbet1
                x = lam12x / lamscale
                y = sbet12a / betscale
            } else {
                // x along the latitude, y along the longitude
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = atan2(sbet12a, cbet12a)
                let lengths = reducedLength(eps: n, sig12: Double.pi + bet12a, ssig1: sbet1, csig1: -cbet1, dn1: dn1,
                                            ssig2: sbet2, csig2: cbet2, dn2: dn2)
                x = -1 + lengths.m12b / (cbet1 * cbet2 * lengths.m0 * Double.pi)
                let betscale = x < -0.01 ? sbet12a / x : -f * M.sq(cbet1) * Double.pi
                lamscale = betscale / cbet1
                y = lam12x / lamscale
            }

            if y > -T.nearCut && x > -1 - T.stripWidth {
                // On the strip next to the cut through the antipode.
                if f >= 0 {
                    salp1 = min(1.0, -x)
                    calp1 = -sqrt(1 - M.sq(salp1))
                } else {
                    calp1 = max(x > -T.nearCut ? 0.0 : -1.0, x)
                    salp1 = sqrt(1 - M.sq(calp1))
                }
            } else {
                // Solve the astroid for ω12 and take α1 from the spherical formula with that ω12
                // (fewer Newton steps afterwards than taking α1 from the astroid directly).
                // ω12 is near π, so work with its supplement.
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
            }
        }
        // A guess outside (0, π) is replaced by due east; the test is written to let NaN through.
        if !(salp1 <= 0) {
            (salp1, calp1) = M.normalize(salp1, calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        result.salp1 = salp1
        result.calp1 = calp1
        return result
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x
        let q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else {
            // y = 0 inside the unit circle: the root is 0.
            return 0
        }
        // S = r³ s and r t below, scaled so that r = 0 divides by nothing.
        let s = p * q / 4
        let r2 = r * r
        let r3 = r * r2
        // The discriminant of the quadratic for T³; zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // The sign of the root that maximizes |T³| avoids cancellation; u is the same either way.
            t3 += t3 < 0 ? -sqrt(disc) : sqrt(disc)
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u is real; take the cube root that avoids cancellation.
            let angle = atan2(sqrt(-disc), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = sqrt(u * u + q)
        // u + v, without cancellation when u < 0; positive either way.
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        // Arranged to avoid subtraction: uv > 0 and w ≥ 0.
        return uv / (sqrt(uv + w * w) + w)
    }
}
