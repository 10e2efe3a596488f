/// A value per row, or one value for every row: what expression evaluation passes around.
/// Constants stay constants so `legend = "Bike"` compares codes against one code.
enum Vector {
    case column(Column)
    case constant(Value, DataType)

    var type: DataType {
        switch self {
        case .column(let c): return c.type
        case .constant(_, let t): return t
        }
    }

    /// A full column of `count` rows.
    func materialize(_ count: Int, name: String = "") -> Column {
        switch self {
        case .column(let c): return c
        case .constant(let v, let t): return Column.constant(v, type: t, count: count, name: name)
        }
    }

    @inline(__always)
    func isValid(_ i: Int) -> Bool {
        switch self {
        case .column(let c): return c.isValid(i)
        case .constant(let v, _): return !v.isNull
        }
    }

    func value(_ i: Int) -> Value {
        switch self {
        case .column(let c): return c.value(at: i)
        case .constant(let v, _): return v
        }
    }
}

extension Column {
    /// A column holding the same value in every row.
    static func constant(_ v: Value, type: DataType, count: Int, name: String = "") -> Column {
        let none = Bitmap(count: count, value: false)
        switch v {
        case .null:
            switch type {
            case .int: return Column(name: name, storage: .int(Array(repeating: 0, count: count)), validity: none)
            case .double: return Column(name: name, storage: .double(Array(repeating: 0, count: count)), validity: none)
            case .bool: return Column(name: name, storage: .bool(Array(repeating: false, count: count)), validity: none)
            case .string: return Column(name: name, storage: .string(StringStorage(codes: Array(repeating: 0, count: count), dictionary: [""])), validity: none)
            case .timestamp: return Column(name: name, storage: .timestamp(Array(repeating: 0, count: count)), validity: none)
            case .duration: return Column(name: name, storage: .duration(Array(repeating: 0, count: count)), validity: none)
            case .geometry:
                return Column(name: name, storage: .geometry(.points(xs: Array(repeating: .nan, count: count), ys: Array(repeating: .nan, count: count), space: .lnglat)), validity: none)
            case .null: return Column.nulls(name, count: count)
            }
        case .int(let x):
            if type == .double { return Column(name: name, storage: .double(Array(repeating: Double(x), count: count))) }
            return Column(name: name, storage: .int(Array(repeating: x, count: count)))
        case .double(let x): return Column(name: name, storage: .double(Array(repeating: x, count: count)))
        case .bool(let x): return Column(name: name, storage: .bool(Array(repeating: x, count: count)))
        case .string(let s): return Column(name: name, storage: .string(StringStorage(codes: Array(repeating: 0, count: count), dictionary: [s])))
        case .timestamp(let x): return Column(name: name, storage: .timestamp(Array(repeating: x, count: count)))
        case .duration(let x): return Column(name: name, storage: .duration(Array(repeating: x, count: count)))
        case .geometry(let g):
            var b = GeometryBuilder(space: g.space)
            b.reserve(count)
            for _ in 0..<count { b.append(g) }
            return Column(name: name, storage: .geometry(b.storage))
        }
    }

    /// Builds a column from per-row values of one type (slow path for rarely used functions).
    static func from(values: [Value], type: DataType, name: String = "", unit: DisplayUnit = .automatic) -> Column {
        let n = values.count
        var validity = Bitmap(count: n, value: true)
        var anyNull = false
        for (i, v) in values.enumerated() where v.isNull { validity[i] = false; anyNull = true }
        if type == .int {
            // A number that is not a whole one within 64 bits has no integer to be: null.
            for (i, v) in values.enumerated() where !v.isNull {
                if case .int = v { continue }
                if let d = v.doubleValue, Int64(exactly: d.rounded(.towardZero)) != nil { continue }
                validity[i] = false
                anyNull = true
            }
        }
        let valid: Bitmap? = anyNull ? validity : nil
        switch type {
        case .int:
            return Column(name: name, storage: .int(values.map { v -> Int64 in
                if case .int(let x) = v { return x }
                return v.doubleValue.flatMap { Int64(exactly: $0.rounded(.towardZero)) } ?? 0
            }), validity: valid, unit: unit)
        case .double:
            return Column(name: name, storage: .double(values.map { $0.doubleValue ?? 0 }), validity: valid, unit: unit)
        case .bool:
            return Column(name: name, storage: .bool(values.map { if case .bool(let x) = $0 { return x }; return false }), validity: valid, unit: unit)
        case .timestamp:
            return Column(name: name, storage: .timestamp(values.map { if case .timestamp(let x) = $0 { return x }; return 0 }), validity: valid, unit: unit)
        case .duration:
            return Column(name: name, storage: .duration(values.map { if case .duration(let x) = $0 { return x }; return 0 }), validity: valid, unit: unit)
        case .geometry:
            // The space of the first geometry; a column holds one (the binder sees to it).
            var space = GeoSpace.lnglat
            for case .geometry(let g) in values { space = g.space; break }
            var b = GeometryBuilder(space: space)
            b.reserve(n)
            for v in values { if case .geometry(let g) = v { b.append(g) } else { b.appendNull() } }
            return Column(name: name, storage: .geometry(b.storage), validity: valid, unit: unit)
        case .string:
            var interner = ByteInterner()
            let codes = values.map { v -> UInt32 in
                if case .string(let s) = v { return interner.intern(s) }
                return 0
            }
            var dict = interner.strings()
            if dict.isEmpty { dict = [""] }
            return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dict)), validity: valid, unit: unit)
        case .null:
            return Column.nulls(name, count: n)
        }
    }
}
