import Foundation

/// Round numbers for an axis: ticks a step apart, the step 1, 2 or 5 times a power of ten,
/// the first tick at or below the smallest value and the last at or above the largest.
struct NiceScale: Sendable {
    var lo: Double
    var hi: Double
    var step: Double
    var ticks: [Double]

    /// Ticks covering `lo … hi` in about `intervals` steps.
    init(covering a: Double, _ b: Double, intervals: Int) {
        var lo = a.isFinite ? a : 0, hi = b.isFinite ? b : 1
        if lo > hi { swap(&lo, &hi) }
        if lo == hi {
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            if lo >= 0 && lo - pad < 0 { lo = 0; hi = hi == 0 ? 1 : hi + pad } else { lo -= pad; hi += pad }
        }
        let step = NiceScale.step(for: (hi - lo) / Double(max(1, intervals)))
        guard step.isFinite, step > 0, (hi - lo).isFinite else {
            // Magnitudes near the limits of a Double: the ends alone.
            self.lo = lo; self.hi = hi; self.step = hi - lo; self.ticks = [lo, hi]
            return
        }
        let first = (lo / step).rounded(.down), last = (hi / step).rounded(.up)
        let count = Int(cells: min(1_000, max(1, last - first)))
        self.step = step
        self.ticks = (0...count).map { (first + Double($0)) * step }
        self.lo = ticks.first!
        self.hi = ticks.last!
    }

    /// The smallest of 1, 2, 5 × 10^k that is at least `raw`.
    static func step(for raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let f = raw / magnitude
        let nice: Double = f <= 1.000001 ? 1 : f <= 2.000001 ? 2 : f <= 5.000001 ? 5 : 10
        return nice * magnitude
    }

    /// A scale whose ticks fall on whole rows of a `rows`-high plot: of the round scales
    /// with 2 to 8 intervals that fit, the one that wastes the least of the plot above the
    /// data and below it, with ticks two or more rows apart when there is room.
    static func fitted(_ lo: Double, _ hi: Double, rows: Int) -> (NiceScale, rowsPerTick: Int) {
        var best: (NiceScale, Int)? = nil
        var bestScore = Double.infinity
        // About a tick every three rows reads best; too few ticks say little.
        let ideal = Double(min(6, max(2, rows / 3)))
        for target in 2...8 {
            let scale = NiceScale(covering: lo, hi, intervals: target)
            let intervals = max(1, scale.ticks.count - 1)
            guard intervals <= rows else { continue }
            let per = rows / intervals
            if per < 2 && rows >= 2 * intervals { continue }
            let span = scale.hi - scale.lo
            let data = max(0, (hi.isFinite ? hi : scale.hi) - (lo.isFinite ? lo : scale.lo))
            let waste = span > 0 && span.isFinite ? 1 - data / span : 0
            let unused = Double(rows - intervals * per) / Double(max(1, rows))
            let score = waste + unused + abs(Double(intervals) - ideal) * 0.04 + (per < 2 ? 0.2 : 0)
            if score < bestScore { bestScore = score; best = (scale, per) }
        }
        if let best { return (best.0, best.1) }
        let scale = NiceScale(covering: lo, hi, intervals: 1)
        return (scale, max(1, rows))
    }
}

extension NiceScale {
    /// A scale for a picture, where rows do not matter: four to eight ticks, the one that
    /// leaves the least empty room beyond the data.
    static func tight(_ lo: Double, _ hi: Double) -> NiceScale {
        var best = NiceScale(covering: lo, hi, intervals: 5)
        var bestScore = Double.infinity
        for target in 3...9 {
            let scale = NiceScale(covering: lo, hi, intervals: target)
            let intervals = scale.ticks.count - 1
            guard intervals >= 2 && intervals <= 8 else { continue }
            let span = scale.hi - scale.lo
            let data = (hi.isFinite ? hi : scale.hi) - (lo.isFinite ? lo : scale.lo)
            let waste = span > 0 && span.isFinite ? 1 - max(0, data) / span : 0
            let score = waste + abs(Double(intervals) - 5) * 0.02
            if score < bestScore { bestScore = score; best = scale }
        }
        return best
    }
}

/// How the measured values read: numbers with the decimals they need, durations as time.
struct ValueFormat: Sendable {
    enum Kind: Sendable { case number, duration }
    let kind: Kind
    let decimals: Int

    init(kind: Kind, values: [Double]) {
        self.kind = kind
        self.decimals = kind == .number ? CellFormat.decimals(for: values) : 0
    }

    /// A value as a bar's end or a cell shows it.
    func value(_ v: Double) -> String {
        guard v.isFinite else { return v.isNaN ? "NaN" : (v < 0 ? "-inf" : "inf") }
        switch kind {
        case .number:
            if abs(v) >= 1e15 { return String(format: "%.3g", v) }
            return NumberText.fixed(v, decimals: decimals)
        case .duration:
            guard abs(v) < 9e12 else { return String(format: "%.3g s", v) }
            return TimeText.duration(Int64((v * 1_000_000).rounded()))
        }
    }

    /// The unit a duration axis counts in, in seconds, and its name.
    func durationUnit(span: Double) -> (Double, String) {
        let s = abs(span)
        if s < 120 { return (1, "s") }
        if s < 2 * 3600 { return (60, "min") }
        if s < 2 * 86_400 { return (3600, "h") }
        return (86_400, "d")
    }

    /// Round ticks for a value axis.
    func scale(_ lo: Double, _ hi: Double, rows: Int) -> (NiceScale, rowsPerTick: Int) {
        guard kind == .duration else { return NiceScale.fitted(lo, hi, rows: rows) }
        let (unit, _) = durationUnit(span: max(abs(lo), abs(hi)))
        var (scale, per) = NiceScale.fitted(lo / unit, hi / unit, rows: rows)
        scale.ticks = scale.ticks.map { $0 * unit }
        scale.lo *= unit; scale.hi *= unit; scale.step *= unit
        return (scale, per)
    }

    /// Round ticks for a value axis in a picture.
    func tightScale(_ lo: Double, _ hi: Double) -> NiceScale {
        guard kind == .duration else { return NiceScale.tight(lo, hi) }
        let (unit, _) = durationUnit(span: max(abs(lo), abs(hi)))
        var scale = NiceScale.tight(lo / unit, hi / unit)
        scale.ticks = scale.ticks.map { $0 * unit }
        scale.lo *= unit; scale.hi *= unit; scale.step *= unit
        return scale
    }

    /// A tick's label: short, with the decimals the step needs (12k for 12,000).
    func tick(_ v: Double, step: Double) -> String {
        guard v.isFinite else { return value(v) }
        if kind == .duration {
            let (unit, name) = durationUnit(span: max(abs(v), abs(step)))
            return NumberLabel.short(v / unit, step: step / unit) + " " + name
        }
        return NumberLabel.short(v, step: step)
    }
}

enum NumberLabel {
    /// A number for an axis: 0.5, 12, 1,500 → 1.5k, 2,000,000 → 2M.
    static func short(_ v: Double, step: Double) -> String {
        guard v.isFinite else { return v.isNaN ? "NaN" : (v < 0 ? "-inf" : "inf") }
        if v == 0 { return "0" }
        let a = abs(v)
        if a >= 1e15 || (a < 1e-4) { return String(format: "%.2g", v) }
        let units: [(Double, String)] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
        if a >= 10_000 {
            for (size, suffix) in units where a >= size {
                return plain(v / size, step: step / size) + suffix
            }
        }
        return plain(v, step: step)
    }

    static func plain(_ v: Double, step: Double) -> String {
        let decimals = step.isFinite && step > 0 ? min(6, CellFormat.decimals(for: [step])) : 0
        var s = NumberText.fixed(v, decimals: decimals)
        if s == "-0" { s = "0" }
        return s
    }
}

extension Int {
    /// A Double as a count of cells or an index: NaN is 0 and huge values are clamped, so
    /// a strange value draws strangely but never stops the program.
    init(cells d: Double) {
        self = d.isNaN ? 0 : Int(Swift.max(-1e9, Swift.min(1e9, d)))
    }
}
