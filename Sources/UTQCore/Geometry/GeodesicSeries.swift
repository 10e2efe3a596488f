// Geodesics on the ellipsoid after Charles F. F. Karney, "Algorithms for geodesics",
// J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z, computed as
// GeographicLib computes them (geodesic.c / geodesic.h, Copyright (c) Charles Karney,
// MIT/X11 licence, https://geographiclib.sourceforge.io/).

/// The series expansions of the geodesic integrals, to sixth order in the expansion parameter
/// eps (and in the third flattening n), as GeographicLib uses them by default.
///
/// The coefficients are fixed-size values rather than arrays so that solving a geodesic never
/// allocates; the polynomials are written out in Horner form in the order GeographicLib
/// evaluates them, so the results round the same way.
enum GeodesicSeries {
    /// Coefficients c1…c6 of the sine series Σ c_l sin(2 l σ).
    struct SineSeries6 {
        var c1, c2, c3, c4, c5, c6: Double

        /// The sum at σ given by sin σ and cos σ (Clenshaw summation).
        @inline(__always)
        func sum(sin sinx: Double, cos cosx: Double) -> Double {
            let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2σ
            var y0 = 0.0, y1 = 0.0
            y1 = ar * y0 - y1 + c6
            y0 = ar * y1 - y0 + c5
            y1 = ar * y0 - y1 + c4
            y0 = ar * y1 - y0 + c3
            y1 = ar * y0 - y1 + c2
            y0 = ar * y1 - y0 + c1
            return 2 * sinx * cosx * y0  // sin 2σ · y0
        }
    }

    /// Coefficients c1…c5 of the sine series Σ c_l sin(2 l σ) (the longitude integral has one
    /// term fewer at this order).
    struct SineSeries5 {
        var c1, c2, c3, c4, c5: Double

        @inline(__always)
        func sum(sin sinx: Double, cos cosx: Double) -> Double {
            let ar = 2 * (cosx - sinx) * (cosx + sinx)
            var y0 = c5, y1 = 0.0
            y1 = ar * y0 - y1 + c4
            y0 = ar * y1 - y0 + c3
            y1 = ar * y0 - y1 + c2
            y0 = ar * y1 - y0 + c1
            return 2 * sinx * cosx * y0
        }
    }

    /// Coefficients c0…c5 of the cosine series Σ c_l cos((2 l + 1) σ), used by the area integral.
    struct CosineSeries6 {
        var c0, c1, c2, c3, c4, c5: Double

        @inline(__always)
        func sum(sin sinx: Double, cos cosx: Double) -> Double {
            let ar = 2 * (cosx - sinx) * (cosx + sinx)
            var y0 = 0.0, y1 = 0.0
            y1 = ar * y0 - y1 + c5
            y0 = ar * y1 - y0 + c4
            y1 = ar * y0 - y1 + c3
            y0 = ar * y1 - y0 + c2
            y1 = ar * y0 - y1 + c1
            y0 = ar * y1 - y0 + c0
            return cosx * (y0 - y1)  // cos σ · (y0 - y1)
        }
    }

    // MARK: The distance integral I1 and the reduced-length integral I2 (independent of n)

    /// A1 - 1, the scale of the distance integral less one.
    @inline(__always)
    static func a1m1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = (((eps2 + 4) * eps2 + 64) * eps2 + 0) / 256
        return (t + eps) / (1 - eps)
    }

    /// C1, the Fourier coefficients of the distance integral.
    @inline(__always)
    static func c1(_ eps: Double) -> SineSeries6 {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((-eps2 + 6) * eps2 - 16) / 32
        d *= eps
        let c2 = d * ((-9 * eps2 + 64) * eps2 - 128) / 2048
        d *= eps
        let c3 = d * (9 * eps2 - 16) / 768
        d *= eps
        let c4 = d * (3 * eps2 - 5) / 512
        d *= eps
        let c5 = d * -7 / 1280
        d *= eps
        let c6 = d * -7 / 2048
        return SineSeries6(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// C1′, the coefficients of the reverted series that turns a distance into an arc length.
    @inline(__always)
    static func c1p(_ eps: Double) -> SineSeries6 {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((205 * eps2 - 432) * eps2 + 768) / 1536
        d *= eps
        let c2 = d * ((4005 * eps2 - 4736) * eps2 + 3840) / 12288
        d *= eps
        let c3 = d * (-225 * eps2 + 116) / 384
        d *= eps
        let c4 = d * (-7173 * eps2 + 2695) / 7680
        d *= eps
        let c5 = d * 3467 / 7680
        d *= eps
        let c6 = d * 38081 / 61440
        return SineSeries6(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// A2 - 1, the scale of the reduced-length integral less one.
    @inline(__always)
    static func a2m1(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = (((-11 * eps2 - 28) * eps2 - 192) * eps2 + 0) / 256
        return (t - eps) / (1 + eps)
    }

    /// C2, the Fourier coefficients of the reduced-length integral.
    @inline(__always)
    static func c2(_ eps: Double) -> SineSeries6 {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((eps2 + 2) * eps2 + 16) / 32
        d *= eps
        let c2 = d * ((35 * eps2 + 64) * eps2 + 384) / 2048
        d *= eps
        let c3 = d * (15 * eps2 + 80) / 768
        d *= eps
        let c4 = d * (7 * eps2 + 35) / 512
        d *= eps
        let c5 = d * 63 / 1280
        d *= eps
        let c6 = d * 77 / 2048
        return SineSeries6(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }
}

extension GeodesicSeries {
    /// The series whose coefficients depend on the ellipsoid: A3 and C3 (longitude) and C4
    /// (area), each coefficient a polynomial in eps whose own coefficients are polynomials in
    /// the third flattening n, evaluated once for the ellipsoid.
    struct EllipsoidTerms: Sendable {
        /// A3's coefficients of eps^5 … eps^0.
        private let a3x: (Double, Double, Double, Double, Double, Double)
        /// C3[1]'s coefficients of eps^5…eps^1, then C3[2]'s of eps^5…eps^2, …, C3[5]'s of eps^5.
        private let c3x: (Double, Double, Double, Double, Double, Double, Double, Double,
                          Double, Double, Double, Double, Double, Double, Double)
        /// C4[0]'s coefficients of eps^5…eps^0, then C4[1]'s of eps^5…eps^1, …, C4[5]'s of eps^5.
        private let c4x: (Double, Double, Double, Double, Double, Double, Double, Double,
                          Double, Double, Double, Double, Double, Double, Double, Double,
                          Double, Double, Double, Double, Double)

        init(n: Double) {
            let a = Self.table(Self.a3Coefficients, n: n, polynomials: [(0, 6)])
            let c3 = Self.table(Self.c3Coefficients, n: n, polynomials: (1..<6).map { ($0, 6) })
            let c4 = Self.table(Self.c4Coefficients, n: n, polynomials: (0..<6).map { ($0, 6) }, fullOrder: true)
            a3x = (a[0], a[1], a[2], a[3], a[4], a[5])
            c3x = (c3[0], c3[1], c3[2], c3[3], c3[4], c3[5], c3[6], c3[7],
                   c3[8], c3[9], c3[10], c3[11], c3[12], c3[13], c3[14])
            c4x = (c4[0], c4[1], c4[2], c4[3], c4[4], c4[5], c4[6], c4[7],
                   c4[8], c4[9], c4[10], c4[11], c4[12], c4[13], c4[14], c4[15],
                   c4[16], c4[17], c4[18], c4[19], c4[20])
        }

        /// A3, the scale of the longitude integral.
        @inline(__always)
        func a3(_ eps: Double) -> Double {
            let x = a3x
            return ((((x.0 * eps + x.1) * eps + x.2) * eps + x.3) * eps + x.4) * eps + x.5
        }

        /// C3, the Fourier coefficients of the longitude integral.
        @inline(__always)
        func c3(_ eps: Double) -> SineSeries5 {
            let x = c3x
            var mult = eps
            let c1 = mult * ((((x.0 * eps + x.1) * eps + x.2) * eps + x.3) * eps + x.4)
            mult *= eps
            let c2 = mult * (((x.5 * eps + x.6) * eps + x.7) * eps + x.8)
            mult *= eps
            let c3 = mult * ((x.9 * eps + x.10) * eps + x.11)
            mult *= eps
            let c4 = mult * (x.12 * eps + x.13)
            mult *= eps
            let c5 = mult * x.14
            return SineSeries5(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5)
        }

        /// C4, the Fourier coefficients of the area integral.
        @inline(__always)
        func c4(_ eps: Double) -> CosineSeries6 {
            let x = c4x
            var mult = 1.0
            let c0 = mult * (((((x.0 * eps + x.1) * eps + x.2) * eps + x.3) * eps + x.4) * eps + x.5)
            mult *= eps
            let c1 = mult * ((((x.6 * eps + x.7) * eps + x.8) * eps + x.9) * eps + x.10)
            mult *= eps
            let c2 = mult * (((x.11 * eps + x.12) * eps + x.13) * eps + x.14)
            mult *= eps
            let c3 = mult * ((x.15 * eps + x.16) * eps + x.17)
            mult *= eps
            let c4 = mult * (x.18 * eps + x.19)
            mult *= eps
            let c5 = mult * x.20
            return CosineSeries6(c0: c0, c1: c1, c2: c2, c3: c3, c4: c4, c5: c5)
        }

        /// Evaluates packed rational coefficients at n. Each polynomial (first index l, size
        /// `order`) holds, for j from order-1 down to l, the coefficient of eps^j as a polynomial
        /// in n followed by its denominator. The polynomial in n has degree order-1-j, capped at
        /// j unless `fullOrder` (as C4's are).
        private static func table(_ packed: [Double], n: Double, polynomials: [(first: Int, order: Int)], fullOrder: Bool = false) -> [Double] {
            var values: [Double] = []
            var offset = 0
            for (first, order) in polynomials {
                for j in stride(from: order - 1, through: first, by: -1) {
                    let degree = fullOrder ? order - j - 1 : min(order - j - 1, j)
                    var y = packed[offset]
                    for k in 0..<degree {
                        y = y * n + packed[offset + k + 1]
                    }
                    values.append(y / packed[offset + degree + 1])
                    offset += degree + 2
                }
            }
            precondition(offset == packed.count, "coefficient table and layout disagree")
            return values
        }

        private static let a3Coefficients: [Double] = [
            -3, 128,             // eps^5
            -2, -3, 64,          // eps^4
            -1, -3, -1, 16,      // eps^3
            3, -1, -2, 8,        // eps^2
            1, -1, 2,            // eps^1
            1, 1,                // eps^0
        ]

        private static let c3Coefficients: [Double] = [
            3, 128,              // C3[1]: eps^5
            2, 5, 128,           //        eps^4
            -1, 3, 3, 64,        //        eps^3
            -1, 0, 1, 8,         //        eps^2
            -1, 1, 4,            //        eps^1
            5, 256,              // C3[2]: eps^5
            1, 3, 128,           //        eps^4
            -3, -2, 3, 64,       //        eps^3
            1, -3, 2, 32,        //        eps^2
            7, 512,              // C3[3]: eps^5
            -10, 9, 384,         //        eps^4
            5, -9, 5, 192,       //        eps^3
            7, 512,              // C3[4]: eps^5
            -14, 7, 512,         //        eps^4
            21, 2560,            // C3[5]: eps^5
        ]

        private static let c4Coefficients: [Double] = [
            97, 15015,                                     // C4[0]: eps^5
            1088, 156, 45045,                              //        eps^4
            -224, -4784, 1573, 45045,                      //        eps^3
            -10656, 14144, -4576, -858, 45045,             //        eps^2
            64, 624, -4576, 6864, -3003, 15015,            //        eps^1
            100, 208, 572, 3432, -12012, 30030, 45045,     //        eps^0
            1, 9009,                                       // C4[1]: eps^5
            -2944, 468, 135135,                            //        eps^4
            5792, 1040, -1287, 135135,                     //        eps^3
            5952, -11648, 9152, -2574, 135135,             //        eps^2
            -64, -624, 4576, -6864, 3003, 135135,          //        eps^1
            8, 10725,                                      // C4[2]: eps^5
            1856, -936, 225225,                            //        eps^4
            -8448, 4992, -1144, 225225,                    //        eps^3
            -1440, 4160, -4576, 1716, 225225,              //        eps^2
            -136, 63063,                                   // C4[3]: eps^5
            1024, -208, 105105,                            //        eps^4
            3584, -3328, 1144, 315315,                     //        eps^3
            -128, 135135,                                  // C4[4]: eps^5
            -2560, 832, 405405,                            //        eps^4
            128, 99099,                                    // C4[5]: eps^5
        ]
    }
}
