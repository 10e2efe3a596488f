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
        let v = try eval(predicate)
        switch v {
        case .constant(.bool(true), _): return (0..<rowCount).map { Int32($0) }
        case .constant: return []
        case .column(let c):
            guard case .bool(let bits) = c.storage else { return [] }
            // Every row is written and the count moves on only for those kept: no branch to
            // mispredict where kept and dropped rows mix, and no growing copies of the list.
            // The pages past the rows kept are never touched.
            let n = bits.count
            return [Int32](unsafeUninitializedCapacity: n) { out, made in
                var k = 0
                let o = out.baseAddress!
                bits.withUnsafeBytes { raw in
                    // A Bool is the byte 0 or 1: added as it is (a `? 1 : 0` compiles to a branch).
                    let b = raw.bindMemory(to: UInt8.self).baseAddress!
                    if let validity = c.validity {
                        for i in 0..<n { o[k] = Int32(truncatingIfNeeded: i); k &+= Int(b[i] & (validity[i] ? 1 : 0)) }
                    } else {
                        for i in 0..<n { o[k] = Int32(truncatingIfNeeded: i); k &+= Int(b[i]) }
                    }
                }
                made = k
            }
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
