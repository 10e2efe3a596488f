/// Whole-number arithmetic that says when a result does not fit, instead of trapping, and
/// the range of times utq holds. Every integer operation a value from data or the language
/// reaches goes through here.
enum Checked {
    /// The whole number a double holds (cut toward zero), or nil when it is not finite or lies
    /// past the range of 64-bit integers.
    @inline(__always)
    static func int64(_ d: Double) -> Int64? {
        guard d.isFinite, d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 else { return nil }
        return Int64(d)
    }

    @inline(__always)
    static func add(_ a: Int64, _ b: Int64) -> Int64? {
        let (r, o) = a.addingReportingOverflow(b)
        return o ? nil : r
    }

    @inline(__always)
    static func subtract(_ a: Int64, _ b: Int64) -> Int64? {
        let (r, o) = a.subtractingReportingOverflow(b)
        return o ? nil : r
    }

    @inline(__always)
    static func multiply(_ a: Int64, _ b: Int64) -> Int64? {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        return o ? nil : r
    }

    @inline(__always)
    static func negate(_ a: Int64) -> Int64? { a == .min ? nil : -a }

    /// The first and last instant utq holds: the years 1 to 9999, as files write them.
    static let firstTime: Int64 = -62_135_596_800_000_000
    static let lastTime: Int64 = 253_402_300_799_999_999

    @inline(__always)
    static func isTime(_ micros: Int64) -> Bool { micros >= firstTime && micros <= lastTime }
}

/// A value computed past what its type holds, at a row; the evaluator turns it into a
/// message that names the expression.
struct ValueOutOfRange: Error {
    enum Kind { case wholeNumber, time, duration }
    let kind: Kind
    var row: Int

    var reason: String {
        switch kind {
        case .wholeNumber: return "is past the range of whole numbers (±9,223,372,036,854,775,807)"
        case .time: return "is a time outside the years 1 to 9999"
        case .duration: return "is a duration longer than utq holds (about 292,000 years)"
        }
    }

    var hint: String? {
        switch kind {
        case .wholeNumber: return "to compute with decimals, make a value a number first: number(x)"
        case .time, .duration: return nil
        }
    }
}
