/// How the values of one column are written for people: numbers with a column-wide
/// number of decimals, times at the column's unit, nulls as a dot.
struct CellFormat {
    let column: Column
    let zone: ZoneRules
    let decimals: Int
    let unit: DisplayUnit
    let nullText: String
    let durations: DurationStyle?

    /// `digits`: the decimals `set digits` asks for; nil chooses them from the values.
    init(_ c: Column, zone: ZoneRules, nullText: String, rows: [Int], digits: Int? = nil) {
        column = c
        self.zone = zone
        self.nullText = nullText
        var decimals = 0
        if case .double(let a) = c.storage {
            decimals = digits ?? CellFormat.decimals(for: rows.filter { c.isValid($0) }.map { a[$0] })
        }
        self.decimals = decimals
        var unit = c.unit
        if case .timestamp(let a) = c.storage, unit == .automatic || unit == .second {
            // Times that all fall on whole minutes print without seconds.
            let valid = rows.filter { c.isValid($0) }
            if !valid.isEmpty && valid.allSatisfy({ CivilTime.floorMod(a[$0], CivilTime.microsPerMinute) == 0 }) { unit = .minute }
            if !valid.isEmpty && valid.allSatisfy({ CivilTime.floorMod(zone.wallMicros(a[$0]), CivilTime.microsPerDay) == 0 }) { unit = .day }
        }
        self.unit = unit
        if case .duration(let a) = c.storage, unit == .automatic {
            durations = DurationStyle(rows.lazy.filter { c.isValid($0) }.map { a[$0] })
        } else {
            durations = nil
        }
    }

    /// Decimals for a column, the same for every row so the points line up: enough to show
    /// each value, up to 4 significant decimals (0.0001235, 1.9630), and more where two
    /// different values would otherwise print alike (up to 12).
    static func decimals(for values: [Double]) -> Int {
        let finite = Array(values.lazy.filter(\.isFinite).prefix(2000))
        guard let maxAbs = finite.map({ abs($0) }).max() else { return 0 }
        // Below 1, the zeros after the point are no significant decimals.
        let cap = maxAbs >= 1 || maxAbs == 0 ? 4 : min(12, Int(-log10(maxAbs).rounded(.down)) - 1 + 4)
        func shows(_ v: Double, _ d: Int) -> Bool {
            let scale = pow(10, Double(d))
            return abs((v * scale).rounded() / scale - v) <= 1e-9 * max(1, abs(v))
        }
        var needed = 0
        for v in finite {
            while needed < cap && !shows(v, needed) { needed += 1 }
            if needed == cap { break }
        }
        // A last decimal that is 0 in every row says nothing (1.96299 to 4 decimals is 1.9630).
        while needed > 0 && finite.allSatisfy({ NumberText.fixed($0, decimals: needed).hasSuffix("0") }) { needed -= 1 }
        // Values that differ must not print alike: 1.00004 and 1.00001 need 5 decimals.
        let distinct = Set(finite).sorted()
        guard distinct.count > 1 else { return needed }
        func alike(_ a: Double, _ b: Double, _ d: Int) -> Bool { NumberText.fixed(a, decimals: d) == NumberText.fixed(b, decimals: d) }
        for k in 1..<distinct.count where alike(distinct[k - 1], distinct[k], needed) {
            while needed < 12 && alike(distinct[k - 1], distinct[k], needed) { needed += 1 }
        }
        return needed
    }

    var rightAligned: Bool {
        switch column.type {
        case .int, .double, .duration: return true
        default: return false
        }
    }

    func text(_ row: Int) -> String {
        guard column.isValid(row) else { return nullText }
        switch column.storage {
        case .int(let a): return String(a[row])
        case .double(let a): return NumberText.fixed(a[row], decimals: decimals)
        case .bool(let a): return a[row] ? "true" : "false"
        case .string(let s): return TextWidth.printable(s.dictionary[Int(s.codes[row])])
        case .timestamp(let a): return TimeText.display(a[row], zone: zone, unit: unit)
        case .duration(let a): return durations?.text(a[row]) ?? TimeText.duration(a[row], unit: unit)
        case .geometry(let g): return WKT.short(g[row], digits: g.space == .lnglat ? 6 : decimals)
        case .null: return nullText
        }
    }
}

import Foundation
