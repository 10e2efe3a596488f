/// How the values of one column are written for people: numbers with a column-wide
/// number of decimals, times at the column's unit, nulls as a dot.
struct CellFormat {
    let column: Column
    let zone: ZoneRules
    let decimals: Int
    let unit: DisplayUnit
    let nullText: String

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
    }

    /// Decimals for a column: enough to show each value (up to about six significant
    /// digits), the same for every row so the points line up.
    static func decimals(for values: [Double]) -> Int {
        let finite = values.filter(\.isFinite)
        guard let maxAbs = finite.map({ abs($0) }).max() else { return 0 }
        let intDigits = maxAbs < 1 ? 0 : Int(log10(maxAbs)) + 1
        let cap = min(6, max(2, 6 - intDigits))
        var needed = 0
        for v in finite.prefix(2000) {
            var d = needed
            while d < cap {
                let scale = pow(10, Double(d))
                if abs((v * scale).rounded() / scale - v) <= 1e-9 * max(1, abs(v)) { break }
                d += 1
            }
            needed = max(needed, d)
            if needed == cap { break }
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
        case .duration(let a): return TimeText.duration(a[row], unit: unit)
        case .null: return nullText
        }
    }
}

import Foundation
