import Foundation

/// What a number in a cell stands for. Excel stores dates and times as numbers (days since
/// its epoch, the time of day as the fraction); only the number format of the cell's style
/// says that a number is one.
enum XLSXNumberKind: UInt8 {
    case plain
    /// A day (`yyyy-mm-dd`, `d-mmm-yy`).
    case date
    /// A day and a time of day.
    case dateTime
    /// A time of day (`h:mm`, `h:mm AM/PM`).
    case time
    /// A span of time that may pass 24 hours (`[h]:mm:ss`).
    case elapsed
}

/// The cell styles of a workbook (xl/styles.xml), reduced to what reading needs: for each
/// style a cell may name (`<c s="3">` is the fourth `<xf>` of `<cellXfs>`), whether its
/// numbers are dates or times.
struct XLSXStyles {
    private(set) var kinds: [XLSXNumberKind] = []

    @inline(__always)
    func kind(_ style: Int) -> XLSXNumberKind { style >= 0 && style < kinds.count ? kinds[style] : .plain }

    static func parse(_ x: inout XMLScanner) throws -> XLSXStyles {
        var custom: [Int: XLSXNumberKind] = [:]
        var formats: [Int] = []
        var inCellFormats = false
        while true {
            switch try x.next() {
            case .endOfDocument:
                var styles = XLSXStyles()
                styles.kinds = formats.map { custom[$0] ?? builtIn($0) }
                return styles
            case .start where x.isName("numFmt"):
                if let id = x.attributeText("numFmtId").flatMap({ Int($0) }), let code = x.attributeText("formatCode") {
                    custom[id] = classify(code)
                }
            case .start where x.isName("cellXfs"):
                inCellFormats = true
            case .end where x.isName("cellXfs"):
                inCellFormats = false
            case .start where inCellFormats && x.isName("xf"):
                formats.append(x.attributeText("numFmtId").flatMap { Int($0) } ?? 0)
            default:
                continue
            }
        }
    }

    /// The formats Excel knows by number without writing them down (ECMA-376 18.8.30),
    /// with the East Asian date formats Excel writes in those locales.
    static func builtIn(_ id: Int) -> XLSXNumberKind {
        switch id {
        case 14...17, 27...31, 36, 50...58: return .date
        case 18...21, 32...35, 45, 47: return .time
        case 22: return .dateTime
        case 46: return .elapsed
        default: return .plain
        }
    }

    /// A custom format's kind, from its first section (the one for positive numbers): date
    /// letters (d, m, y) and time letters (h, s) outside quoted text, escapes and brackets —
    /// `"days"`, `\d`, `[Red]` and `[$-409]` say nothing — except `[h]`, `[mm]`, `[ss]`,
    /// which count time past a day. `m` alone is a month, beside `h` or `s` a minute.
    static func classify(_ code: String) -> XLSXNumberKind {
        // Names some writers use for the default format, whose letters are no date.
        if ["general", "standard", "@"].contains(code.trimmingCharacters(in: .whitespaces).lowercased()) { return .plain }
        var date = false, time = false, month = false, elapsed = false
        var chars = Array(code.unicodeScalars)[...]
        while let c = chars.popFirst() {
            switch c {
            case ";": chars = []  // only the first section
            case "\"": while let q = chars.popFirst(), q != "\"" {}
            case "\\", "_", "*": _ = chars.popFirst()
            case "[":
                var inside = ""
                while let q = chars.popFirst(), q != "]" { inside.unicodeScalars.append(q) }
                let lower = inside.lowercased()
                if !lower.isEmpty, lower.allSatisfy({ $0 == "h" }) || lower.allSatisfy({ $0 == "m" }) || lower.allSatisfy({ $0 == "s" }) {
                    elapsed = true
                }
            case "d", "D", "y", "Y": date = true
            case "h", "H", "s", "S": time = true
            case "m", "M": month = true
            default: continue
            }
        }
        if elapsed { return .elapsed }
        if month && !time { date = true }
        switch (date, time) {
        case (true, true): return .dateTime
        case (true, false): return .date
        case (false, true): return .time
        case (false, false): return .plain
        }
    }
}
