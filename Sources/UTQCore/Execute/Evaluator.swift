/// Evaluates bound expressions over whole columns of a table.
struct Evaluator {
    let table: Table
    var notes: RunNotes? = nil
    /// Ctrl-C's flag, which loops over rows look at.
    var cancel: CancellationFlag? = nil
    var rowCount: Int { table.rowCount }
    var callContext: CallContext { CallContext(zone: table.zone, notes: notes, cancel: cancel) }

    func column(_ e: BoundExpr, name: String = "") throws -> Column {
        var c = try eval(e).materialize(rowCount, name: name)
        c.name = name
        if c.unit == .automatic { c.unit = e.unit }
        return c
    }

    func eval(_ e: BoundExpr) throws -> Vector {
        switch e {
        case .column(let i, _):
            return .column(table.columns[i])
        case .literal(let v, let t):
            return .constant(v, t)
        case .cast(let inner, let t):
            return try cast(eval(inner), to: t)
        case .unary(.negate, let inner, _):
            let v = try eval(inner)
            return try reporting(e) { try Arithmetic.negate(v, rowCount) }
        case .unary(.not, let inner, _):
            return Logic.not(try eval(inner), rowCount)
        case .binary(let op, let l, let r, let t):
            // Several steps of arithmetic over numbers: one pass, no column per step.
            if rowCount >= FusedArithmetic.chunk, let program = FusedArithmetic.compile(e, table: table) {
                return .column(Column(name: "", storage: .double(program.run(rowCount))))
            }
            let a = try eval(l), b = try eval(r)
            switch op {
            case .and: return Logic.and(a, b, rowCount)
            case .or: return Logic.or(a, b, rowCount)
            case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
                return Comparison.compare(op, a, b, rowCount)
            case .contains, .startsWith, .endsWith, .matches:
                return try TextMatch.match(op, a, b, rowCount, cancel: cancel)
            case .add, .subtract, .multiply, .divide, .modulo:
                return try reporting(e) { try Arithmetic.apply(op, a, b, resultType: t, rowCount) }
            }
        case .isNull(let inner, let negated):
            let v = try eval(inner)
            switch v {
            case .constant(let value, _): return .constant(.bool(value.isNull != negated), .bool)
            case .column(let c):
                var out = [Bool](repeating: negated, count: rowCount)
                if case .null = c.storage { return .constant(.bool(!negated), .bool) }
                if let validity = c.validity { for i in 0..<rowCount where !validity[i] { out[i] = !negated } }
                return .column(Column(name: "", storage: .bool(out)))
            }
        case .inList(let inner, let values, let negated):
            return Comparison.inList(try eval(inner), values, negated: negated, rowCount)
        case .bucket(let bucket, let inner, let zone):
            let v = try eval(inner)
            return try reporting(e) { try Buckets.apply(bucket, v, zone: zone, rowCount) }
        case .call(let f, let args, let type):
            let values = try args.map { try eval($0) }
            return try reporting(e) { try f.evaluate(values, type, rowCount, callContext) }
        }
    }

    /// A value out of range becomes a message that names the expression and the row.
    func reporting(_ e: BoundExpr, _ work: () throws -> Vector) throws -> Vector {
        do {
            return try work()
        } catch let r as ValueOutOfRange {
            let row = r.row < rowCount && rowCount > 1 ? " (row \(NumberText.grouped(r.row + 1)))" : ""
            throw Diagnostic("\(e.describeBare) \(r.reason)\(row)", hint: r.hint)
        }
    }

    func cast(_ v: Vector, to t: DataType) throws -> Vector {
        if v.type == t { return v }
        switch v {
        case .constant(let value, _):
            switch (value, t) {
            case (.int(let x), .double): return .constant(.double(Double(x)), .double)
            case (.null, _): return .constant(.null, t)
            default: return .constant(value, t)
            }
        case .column(let c):
            switch (c.storage, t) {
            case (.int(let a), .double):
                return .column(Column(name: c.name, storage: .double(a.map { Double($0) }), validity: c.validity))
            case (.null(let n), _):
                return .column(Column.constant(.null, type: t, count: n, name: c.name))
            default:
                return .column(Column.from(values: (0..<rowCount).map { c.value(at: $0) }, type: t, name: c.name))
            }
        }
    }

    /// The rows where a predicate is true (null counts as false).
    func selection(_ predicate: BoundExpr) throws -> [Int32] {
        if let text = textKept(predicate) { return text.setIndices() }
        let v = try eval(predicate)
        if case .constant(.bool(true), _) = v { return (0..<rowCount).map { Int32($0) } }
        return Self.kept(v, rows: rowCount).setIndices()
    }

    /// The rows for which a condition is true (not false, not null), a bit each.
    func kept(_ predicate: BoundExpr) throws -> Bitmap {
        if let text = textKept(predicate) { return text }
        return Self.kept(try eval(predicate), rows: rowCount)
    }

    /// A text column compared with a text constant (`legend = "Bike"`), straight to bits.
    private func textKept(_ predicate: BoundExpr) -> Bitmap? {
        guard case .binary(let op, let l, let r, _) = predicate,
              [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(op) else { return nil }
        switch (l, r) {
        case (.column(let i, _), .literal(.string(let key), _)) where i < table.columns.count:
            return Comparison.kept(table.columns[i], key, op, rowCount)
        case (.literal(.string(let key), _), .column(let i, _)) where i < table.columns.count:
            return Comparison.kept(table.columns[i], key, op.flipped, rowCount)
        default:
            return nil
        }
    }

    /// The rows where a condition's values are true, a bit each.
    static func kept(_ v: Vector, rows n: Int) -> Bitmap {
        switch v {
        case .constant(.bool(true), _): return Bitmap(count: n, value: true)
        case .constant: return Bitmap(count: n, value: false)
        case .column(let c):
            guard case .bool(let values) = c.storage else { return Bitmap(count: n, value: false) }
            var words = [UInt64](repeating: 0, count: (n + 63) >> 6)
            values.withUnsafeBytes { raw in
                // A Bool is the byte 0 or 1: eight of them, read as one 64-bit number, times
                // 0x0102040810204080 put byte k's bit at bit 56 + k; eight such make a word.
                let b = raw.baseAddress!
                words.withUnsafeMutableBufferPointer { w in
                    let whole = n >> 6
                    for k in 0..<whole {
                        var word: UInt64 = 0
                        for j in 0..<8 {
                            let eight = b.loadUnaligned(fromByteOffset: (k << 6) + (j << 3), as: UInt64.self)
                            word |= ((eight &* 0x0102_0408_1020_4080) >> 56) << UInt64(j << 3)
                        }
                        w[k] = word
                    }
                    if whole < w.count {
                        var word: UInt64 = 0
                        for i in (whole << 6)..<n { word |= UInt64(b.load(fromByteOffset: i, as: UInt8.self)) << UInt64(i & 63) }
                        w[whole] = word
                    }
                }
            }
            let truths = Bitmap(words: words, count: n)
            return c.validity.map { truths & $0 } ?? truths
        }
    }
}

/// Three-valued logic: null and false is false, null or true is true.
enum Logic {
    static func bools(_ v: Vector, _ n: Int) -> (values: [Bool], valid: Bitmap?) {
        switch v {
        case .constant(.bool(let b), _): return (Array(repeating: b, count: n), nil)
        case .constant: return (Array(repeating: false, count: n), Bitmap(count: n, value: false))
        case .column(let c):
            if case .bool(let a) = c.storage { return (a, c.validity) }
            return (Array(repeating: false, count: n), Bitmap(count: n, value: false))
        }
    }

    static func not(_ v: Vector, _ n: Int) -> Vector {
        if case .constant(.bool(let b), _) = v { return .constant(.bool(!b), .bool) }
        let (a, valid) = bools(v, n)
        return .column(Column(name: "", storage: .bool(a.map { !$0 }), validity: valid))
    }

    static func and(_ x: Vector, _ y: Vector, _ n: Int) -> Vector {
        let (a, va) = bools(x, n), (b, vb) = bools(y, n)
        var out = [Bool](repeating: false, count: n)
        if va == nil && vb == nil {
            for i in 0..<n { out[i] = a[i] && b[i] }
            return .column(Column(name: "", storage: .bool(out)))
        }
        var valid = Bitmap(count: n, value: true)
        for i in 0..<n {
            let ka = va?[i] ?? true, kb = vb?[i] ?? true
            if (ka && !a[i]) || (kb && !b[i]) { out[i] = false }
            else if ka && kb { out[i] = true }
            else { valid[i] = false }
        }
        return .column(Column(name: "", storage: .bool(out), validity: valid))
    }

    static func or(_ x: Vector, _ y: Vector, _ n: Int) -> Vector {
        let (a, va) = bools(x, n), (b, vb) = bools(y, n)
        var out = [Bool](repeating: false, count: n)
        if va == nil && vb == nil {
            for i in 0..<n { out[i] = a[i] || b[i] }
            return .column(Column(name: "", storage: .bool(out)))
        }
        var valid = Bitmap(count: n, value: true)
        for i in 0..<n {
            let ka = va?[i] ?? true, kb = vb?[i] ?? true
            if (ka && a[i]) || (kb && b[i]) { out[i] = true }
            else if ka && kb { out[i] = false }
            else { valid[i] = false }
        }
        return .column(Column(name: "", storage: .bool(out), validity: valid))
    }
}

/// Validity of a result from the validities of its operands.
func combinedValidity(_ a: Vector, _ b: Vector, _ n: Int) -> Bitmap? {
    func bits(_ v: Vector) -> Bitmap?? {
        switch v {
        case .constant(let value, _): return value.isNull ? .some(Bitmap(count: n, value: false)) : .some(nil)
        case .column(let c):
            if case .null = c.storage { return .some(Bitmap(count: n, value: false)) }
            return .some(c.validity)
        }
    }
    let x = bits(a)!, y = bits(b)!
    switch (x, y) {
    case (nil, nil): return nil
    case (let p?, nil): return p
    case (nil, let q?): return q
    case (let p?, let q?): return p & q
    }
}
