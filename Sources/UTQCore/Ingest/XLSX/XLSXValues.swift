import Foundation

/// What one cell's value is, read as utq reads a CSV cell: whole numbers are ints, other
/// numbers doubles, dates timestamps, times of day clock durations.
enum XLSXValueClass: Equatable {
    case int, double, bool, timestamp, duration, text
    /// An error value (`#N/A`): no value, and no say in the column's type.
    case none

    /// How a message names a cell of this class.
    var described: String {
        switch self {
        case .int, .double: return "a number"
        case .bool: return "true or false"
        case .timestamp: return "a date"
        case .duration: return "a time of day"
        case .text: return "text"
        case .none: return "an error"
        }
    }
}

/// Excel's numbers for days and times, and how a cell reads as a class and as text.
struct XLSXValues {
    let shared: XLSXTexts
    let texts: XLSXTexts
    /// Serial day 0 is 1904-01-01 instead of 1899-12-30.
    let date1904: Bool

    /// Day numbers past this (year 29000) are no date Excel can show, and would overflow.
    static let largestSerial = 1e7

    static let epoch1900 = CivilTime.daysFromCivil(year: 1899, month: 12, day: 30)
    static let epoch1904 = CivilTime.daysFromCivil(year: 1904, month: 1, day: 1)

    @inline(__always)
    func number(_ bits: UInt64) -> Double { Double(bitPattern: bits) }

    /// The class of a cell's value.
    func valueClass(_ kind: XLSXCells.Kind, _ bits: UInt64) -> XLSXValueClass {
        switch kind {
        case .number:
            let v = number(bits)
            return v == v.rounded() && v.magnitude <= 9_007_199_254_740_992 ? .int : .double
        case .date, .dateTime, .time:
            // A date format on a number under 1 shows a time of day (Excel's 1900-01-00 is
            // no date), as openpyxl and pandas read it; a time format on one past a day is a
            // date and time shown as a time.
            let v = number(bits)
            if v.magnitude >= Self.largestSerial { return .double }
            return v >= 0 && v < 1 ? .duration : .timestamp
        case .elapsed:
            return number(bits).magnitude >= Self.largestSerial ? .double : .duration
        case .bool: return .bool
        case .shared, .text: return .text
        case .error: return .none
        case .isoDate, .isoDateTime: return .timestamp
        }
    }

    /// Wall-clock microseconds of a date cell. In the 1900 system day 60 is 1900-02-29, a day
    /// that never was (Excel kept Lotus 1-2-3's mistake), so days before it are a day later
    /// than the count from 1899-12-30 says; day 60 itself reads as 1900-02-28. The fraction is
    /// rounded to the millisecond, as Excel shows it.
    func wallMicros(_ kind: XLSXCells.Kind, _ bits: UInt64) -> Int64 {
        if kind == .isoDate || kind == .isoDateTime { return Int64(bitPattern: bits) }
        let v = number(bits)
        var day = v.rounded(.down)
        let ms = ((v - day) * 86_400_000).rounded(.toNearestOrEven)
        if !date1904 && v > 0 && v < 60 { day += 1 }
        let days = (date1904 ? Self.epoch1904 : Self.epoch1900) + Int64(day)
        return days * CivilTime.microsPerDay + Int64(ms) * 1000
    }

    /// Whether Excel's day 60 (1900-02-29, which never was) is what the cell holds.
    func isLeapDayThatNeverWas(_ kind: XLSXCells.Kind, _ bits: UInt64) -> Bool {
        guard !date1904, kind == .date || kind == .dateTime || kind == .time else { return false }
        return number(bits).rounded(.down) == 60
    }

    /// Whether a date cell has a time of day, written or in its format.
    func hasTime(_ kind: XLSXCells.Kind, _ bits: UInt64) -> Bool {
        switch kind {
        case .isoDate: return false
        case .isoDateTime, .dateTime, .time: return true
        default:
            let v = number(bits)
            return v != v.rounded(.down)
        }
    }

    /// Microseconds of a time of day or an elapsed time, to the millisecond.
    func durationMicros(_ bits: UInt64) -> Int64 {
        Int64((number(bits) * 86_400_000).rounded(.toNearestOrEven)) * 1000
    }

    /// The cell as text, as a text column holds it: texts as written, numbers in their
    /// shortest form, dates in ISO 8601, times as a clock. Nil for an error.
    func text(_ kind: XLSXCells.Kind, _ bits: UInt64) -> String? {
        switch kind {
        case .shared: return shared.string(Int(bits))
        case .text: return texts.string(Int(bits))
        case .error: return nil
        case .bool: return bits == 0 ? "false" : "true"
        default: break
        }
        switch valueClass(kind, bits) {
        case .int: return String(Int64(number(bits)))
        case .timestamp:
            return TimeText.display(wallMicros(kind, bits), zone: .utc, unit: hasTime(kind, bits) ? .second : .day)
        case .duration:
            return TimeText.duration(durationMicros(bits), unit: .clock)
        default:
            return NumberText.double(number(bits))
        }
    }

    /// The text of an error cell (`#DIV/0!`).
    func errorText(_ bits: UInt64) -> String { texts.string(Int(bits)) }
}

/// How messages name a cell: `Sheet1!C7`, `'People Staying'!C7`, as Excel's formulas do.
struct XLSXCellNames {
    let sheet: String

    var prefix: String {
        let plain = !sheet.isEmpty && !(sheet.first!.isNumber)
            && sheet.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
        return (plain ? sheet : "'" + sheet.replacingOccurrences(of: "'", with: "''") + "'") + "!"
    }

    func cell(row: Int32, column: Int) -> String { prefix + Self.letters(column) + String(row) }

    /// 0 → A, 25 → Z, 26 → AA.
    static func letters(_ column: Int) -> String {
        var n = column + 1
        var out: [Character] = []
        while n > 0 {
            let r = (n - 1) % 26
            out.insert(Character(UnicodeScalar(UInt8(65 + r))), at: 0)
            n = (n - 1) / 26
        }
        return String(out)
    }
}
