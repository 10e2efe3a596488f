import Foundation
import UTQCore

/// Reads libpq's text cells into typed columns, by the type the plan says the column has.
enum PGDecode {
    static func column(_ field: Field, cells: [String], nulls: [Bool], codes: [String]?, labels: [String]? = nil) throws -> Column {
        let n = cells.count
        var valid: Bitmap? = nil
        if nulls.contains(true) {
            var bits = Bitmap()
            bits.reserveCapacity(n)
            for isNull in nulls { bits.append(!isNull) }
            valid = bits
        }
        func bad(_ i: Int) -> Error {
            Diagnostic("the database gave \(cells[i].debugDescription) for \(field.name), which is not a \(field.type.displayName)")
        }
        let storage: Column.Storage
        switch field.type {
        case .int:
            storage = .int(try (0..<n).map { i in nulls[i] ? 0 : try whole(cells[i], field) ?? { throw bad(i) }() })
        case .duration:
            // An average or quantile of durations comes as a fraction of a microsecond: rounded
            // as utq rounds its own.
            storage = .duration(try (0..<n).map { i in nulls[i] ? 0 : try Int64(cells[i]) ?? wholeMicros(cells[i]) ?? { throw bad(i) }() })
        case .double:
            storage = .double(try (0..<n).map { i in nulls[i] ? 0 : try Double(cells[i]) ?? { throw bad(i) }() })
        case .bool:
            storage = .bool((0..<n).map { i in cells[i] == "t" })
        case .timestamp:
            storage = .timestamp(try (0..<n).map { i in nulls[i] ? 0 : try micros(cells[i]) ?? wholeMicros(cells[i]) ?? { throw bad(i) }() })
        case .string:
            if let codes {
                // A weekday or month sent as its number: the names in their own order.
                let values = try (0..<n).map { i -> UInt32 in
                    guard !nulls[i] else { return 0 }
                    guard let k = Int(cells[i]), k >= 0, k < codes.count else { throw bad(i) }
                    return UInt32(k)
                }
                storage = .string(StringStorage(codes: values, dictionary: codes, ordered: true))
            } else if let labels, let values = Self.labelCodes(cells, nulls, labels) {
                // An enum's values in the enum's order.
                storage = .string(StringStorage(codes: values, dictionary: labels.isEmpty ? [""] : labels, ordered: true))
            } else {
                var interner = ByteInterner()
                var out = [UInt32](repeating: 0, count: n)
                for i in 0..<n where !nulls[i] { out[i] = interner.intern(cells[i]) }
                // Null rows hold code 0: a column of nulls only still needs an entry for it.
                let words = interner.strings()
                storage = .string(StringStorage(codes: out, dictionary: words.isEmpty ? [""] : words, ordered: field.ordered))
            }
        case .geometry:
            var b = GeometryBuilder(space: field.space)
            for i in 0..<n {
                if nulls[i] { b.appendNull(); continue }
                var cell = cells[i]
                do {
                    try cell.withUTF8 { b.append(try Geometry.fromDatabase(UnsafeRawBufferPointer($0), space: field.space)) }
                } catch let e as WKT.ParseError {
                    throw Diagnostic("the database gave a geometry for \(field.name) that utq cannot read: \(e.message)")
                }
            }
            storage = .geometry(b.storage)
        case .null:
            storage = .null(n)
        }
        var c = Column(name: field.name, storage: storage, validity: valid, unit: field.unit)
        c.floating = field.floating
        return c
    }

    /// Each cell's place among the labels, or nil if one is not among them.
    static func labelCodes(_ cells: [String], _ nulls: [Bool], _ labels: [String]) -> [UInt32]? {
        var place: [String: UInt32] = [:]
        for (k, l) in labels.enumerated() { place[l] = UInt32(k) }
        var out = [UInt32](repeating: 0, count: cells.count)
        for i in cells.indices where !nulls[i] {
            guard let k = place[cells[i]] else { return nil }
            out[i] = k
        }
        return out
    }

    /// A whole number as the database wrote it (a sum of bigints is a numeric, an integral
    /// float may come with an exponent). One past the 64 bits utq holds is the error memory
    /// gives for the same sum, never a trap.
    static func whole(_ text: String, _ field: Field) throws -> Int64? {
        if let i = Int64(text) { return i }
        guard let d = Double(text) else { return nil }
        guard d.isFinite, d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else {
            throw Diagnostic("\(field.name) is past the range of whole numbers (±9,223,372,036,854,775,807)",
                             hint: "to add with decimals, make the column a number first: number(COLUMN)")
        }
        return Int64(d)
    }

    /// A number of microseconds written with a fraction, rounded half away from zero.
    static func wholeMicros(_ text: String) -> Int64? {
        guard let d = Double(text), d.isFinite, abs(d) < 9.2e18 else { return nil }
        return Int64(d.rounded())
    }

    /// "2020-02-17 00:00:01.25+00" (the session's zone is UTC) as microseconds since 1970.
    static func micros(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { micros(bytes: $0) }
    }

    /// The same, from the bytes libpq gives.
    static func micros(bytes b: UnsafeRawBufferPointer) -> Int64? {
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for k in from..<(from + count) { let d = Int(b[k]) - 48; guard d >= 0 && d <= 9 else { return nil }; v = v * 10 + d }
            return v
        }
        guard b.count >= 19, let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2),
              let h = num(11, 2), let mi = num(14, 2), let s = num(17, 2) else { return nil }
        var i = 19
        var fraction: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 { if digits < 6 { fraction = fraction * 10 + Int64(b[i] - 48); digits += 1 }; i += 1 }
            while digits < 6 { fraction *= 10; digits += 1 }
        }
        // The offset, +00 in a UTC session, but read whatever it is.
        var offset: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = num(i + 1, 2) else { return nil }
            var om = 0
            if i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let m = num(i + 4, 2) { om = m }
            offset = sign * Int64(oh * 3600 + om * 60)
        }
        let days = CivilTime.daysFromCivil(year: y, month: mo, day: d)
        let seconds = days * 86400 + Int64(h * 3600 + mi * 60 + s) - offset
        return seconds * 1_000_000 + fraction
    }
}
