// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

import Foundation

/// A geodesic fixed by its start and its azimuth there, ready to give the point any distance
/// along it (the direct problem).
///
/// Everything that depends only on the start is computed once, so that many points along one
/// line (waypoints) cost one series evaluation each.
struct GeodesicLine {
    private let b: Double
    private let f: Double
    private let f1: Double
    private let lon1: Double
    /// Sine and cosine of the azimuth at the node, where the line crosses the equator northwards.
    private let salp0: Double
    private let calp0: Double
    /// Arc length σ1 from the node on the auxiliary sphere, and the longitude ω1 there.
    private let ssig1: Double
    private let csig1: Double
    private let somg1: Double
    private let comg1: Double
    /// ep² cos²α0, the squared parameter of the line.
    private let k2: Double
    private let a1m1: Double
    private let c1: GeodesicSeries.SineSeries6
    private let c1p: GeodesicSeries.SineSeries6
    private let c3: GeodesicSeries.SineSeries5
    /// The distance series at the start, and τ1 = σ1 + B11 as sine and cosine.
    private let b11: Double
    private let stau1: Double
    private let ctau1: Double
    /// -f sin α0 A3, the scale of the longitude correction, and the longitude series at the start.
    private let a3c: Double
    private let b31: Double

    /// The line leaving (lat1, lon1) at `azimuth` degrees.
    init(_ geodesic: Geodesic, lat1: Double, lon1: Double, azimuth: Double) {
        // Rounding tiny azimuths keeps sin α0 from underflowing.
        let (salp1, calp1) = GeodesicMath.sinCosDegrees(GeodesicMath.roundAngle(azimuth))
        self.init(geodesic, lat1: lat1, lon1: lon1, salp1: salp1, calp1: calp1)
    }

    /// The line leaving (lat1, lon1) with the azimuth given by its sine and cosine (as the
    /// inverse solution finds them, which is more exact than going through degrees).
    init(_ geodesic: Geodesic, lat1: Double, lon1: Double, salp1: Double, calp1: Double) {
        b = geodesic.b
        f = geodesic.f
        f1 = geodesic.f1
        self.lon1 = lon1
        let lat1 = GeodesicMath.checkedLatitude(lat1)

        var (sbet1, cbet1) = GeodesicMath.sinCosDegrees(GeodesicMath.roundAngle(lat1))
        sbet1 *= f1
        (sbet1, cbet1) = GeodesicMath.normalize(sbet1, cbet1)
        cbet1 = max(GeodesicTolerance.tiny, cbet1)  // a pole keeps a direction

        // sin α0 = sin α1 cos β1 (Clairaut); cos α0 this way stays exact when sin α1 = 0.
        salp0 = salp1 * cbet1
        calp0 = hypot(calp1, salp1 * sbet1)
        // tan β1 = tan σ1 cos α1 and tan ω1 = sin α0 tan σ1; σ = 0 at the northward node.
        var ssig1 = sbet1
        somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        comg1 = csig1
        (ssig1, csig1) = GeodesicMath.normalize(ssig1, csig1)
        self.ssig1 = ssig1
        self.csig1 = csig1

        k2 = GeodesicMath.sq(calp0) * geodesic.ep2
        let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)

        a1m1 = GeodesicSeries.a1m1(eps)
        c1 = GeodesicSeries.c1(eps)
        b11 = c1.sum(sin: ssig1, cos: csig1)
        let s = sin(b11), c = cos(b11)
        stau1 = ssig1 * c + csig1 * s
        ctau1 = csig1 * c - ssig1 * s
        c1p = GeodesicSeries.c1p(eps)

        c3 = geodesic.series.c3(eps)
        a3c = -f * salp0 * geodesic.series.a3(eps)
        b31 = c3.sum(sin: ssig1, cos: csig1)
    }

    /// The point `distance` metres along the line (negative goes backwards), with the forward
    /// azimuth there; the longitude is reduced to [-180, 180].
    func position(distance s12: Double) -> (lat: Double, lon: Double, azimuth: Double) {
        // The distance as an arc length τ12 on the sphere of radius b (1 + A1 - 1), then σ12
        // through the reverted series.
        let tau12 = s12 / (b * (1 + a1m1))
        let s = sin(tau12), c = cos(tau12)
        var b12 = -c1p.sum(sin: stau1 * c + ctau1 * s, cos: ctau1 * c - stau1 * s)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(f) > 0.01 {
            // The reverted series is not accurate enough for such flattening: one Newton step.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            b12 = c1.sum(sin: ssig2, cos: csig2)
            let serr = (1 + a1m1) * (sig12 + (b12 - b11)) - s12 / b
            sig12 = sig12 - serr / sqrt(1 + k2 * GeodesicMath.sq(ssig2))
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }

        // σ2 = σ1 + σ12
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        // sin β2 = cos α0 sin σ2
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // A meridian line at a pole: break the tie so the azimuth stays defined.
            cbet2 = GeodesicTolerance.tiny
            csig2 = GeodesicTolerance.tiny
        }
        // tan α0 = cos σ2 tan α2
        let salp2 = salp0, calp2 = calp0 * csig2

        // tan ω2 = sin α0 tan σ2
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (c3.sum(sin: ssig2, cos: csig2) - b31))
        let lon12 = lam12 * GeodesicMath.degreesPerRadian
        let lon2 = GeodesicMath.normalizeAngle(GeodesicMath.normalizeAngle(lon1) + GeodesicMath.normalizeAngle(lon12))
        let lat2 = GeodesicMath.atan2Degrees(sbet2, f1 * cbet2)
        let azi2 = GeodesicMath.atan2Degrees(salp2, calp2)
        return (lat2, lon2, azi2)
    }
}
