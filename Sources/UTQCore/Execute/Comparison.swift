/// = != < <= > >= and `in (…)`. Text compared with a constant is decided once per
/// distinct value and then looked up by code, so a filter on a legend costs one array pass.
enum Comparison {
    @inline(__always)
    static func holds(_ op: BinaryOp, _ c: Int) -> Bool {
        switch op {
        case .equal: return c == 0
        case .notEqual: return c != 0
        case .less: return c < 0
        case .lessEqual: return c <= 0
        case .greater: return c > 0
        case .greaterEqual: return c >= 0
        default: return false
        }
    }

    /// Numbers in one order everywhere (comparisons, sorting, max, grouping), as PostgreSQL and
    /// DuckDB have it: NaN equals NaN and is above every number; -0 equals 0.
    @inline(__always)
    static func order(_ x: Double, _ y: Double) -> Int {
        if x == y { return 0 }
        if x < y { return -1 }
        if x > y { return 1 }
        return x.isNaN ? (y.isNaN ? 0 : 1) : -1
    }

    /// Text as = and < see it: natural order, with byte order deciding between values that
    /// differ only in case, so = means the same text, as it does for in, by and join.
    @inline(__always)
    static func compareText(_ x: String, _ y: String) -> Int {
        if x == y { return 0 }
        let c = TextOrder.compare(x, y)
        return c != 0 ? c : (x < y ? -1 : 1)
    }

    static func compareValues(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case let (.string(x), .string(y)): return compareText(x, y)
        case let (.bool(x), .bool(y)): return x == y ? 0 : (!x ? -1 : 1)
        case let (.int(x), .int(y)), let (.timestamp(x), .timestamp(y)), let (.duration(x), .duration(y)):
            return x == y ? 0 : (x < y ? -1 : 1)
        // Geometries are equal or not; the binder allows no other comparison of them.
        case let (.geometry(x), .geometry(y)): return x == y ? 0 : 1
        default:
            let x = a.doubleValue ?? .nan, y = b.doubleValue ?? .nan
            return order(x, y)
        }
    }

    static func compare(_ op: BinaryOp, _ a: Vector, _ b: Vector, _ n: Int) -> Vector {
        // Both constant: fold.
        if case .constant(let x, _) = a, case .constant(let y, _) = b {
            if x.isNull || y.isNull { return .constant(.null, .bool) }
            return .constant(.bool(holds(op, compareValues(x, y))), .bool)
        }
        let valid = combinedValidity(a, b, n)
        // Column against a constant, the common case in `where`.
        if case .column(let c) = a, case .constant(let k, _) = b {
            return .column(Column(name: "", storage: .bool(against(c, k, op, n)), validity: valid))
        }
        if case .constant(let k, _) = a, case .column(let c) = b {
            return .column(Column(name: "", storage: .bool(against(c, k, op.flipped, n)), validity: valid))
        }
        guard case .column(let x) = a, case .column(let y) = b else { return .constant(.null, .bool) }
        var out = [Bool](repeating: false, count: n)
        switch (x.storage, y.storage) {
        case let (.int(p), .int(q)), let (.timestamp(p), .timestamp(q)), let (.duration(p), .duration(q)):
            for i in 0..<n { out[i] = holds(op, p[i] == q[i] ? 0 : (p[i] < q[i] ? -1 : 1)) }
        case let (.string(p), .string(q)):
            for i in 0..<n {
                let s = p.dictionary[Int(p.codes[i])], t = q.dictionary[Int(q.codes[i])]
                out[i] = holds(op, compareText(s, t))
            }
        default:
            if x.type.isNumeric && y.type.isNumeric {
                let p = Arithmetic.doubles(a, n), q = Arithmetic.doubles(b, n)
                for i in 0..<n { out[i] = holds(op, order(p[i], q[i])) }
            } else {
                for i in 0..<n { out[i] = holds(op, compareValues(x.value(at: i), y.value(at: i))) }
            }
        }
        return .column(Column(name: "", storage: .bool(out), validity: valid))
    }

    /// The rows where a text column compared with a text constant holds, a bit each (nulls
    /// never hold): each distinct value decided once, then 64 rows' codes looked up into a word,
    /// without a truth a row made first (10 MB at 10M rows, for a `where legend = "Bike"`).
    static func kept(_ c: Column, _ key: String, _ op: BinaryOp, _ n: Int) -> Bitmap? {
        guard case .string(let s) = c.storage, s.codes.count == n else { return nil }
        let table: [UInt64] = s.dictionary.map { d in holds(op, compareText(d, key)) ? 1 : 0 }
        var words = [UInt64](repeating: 0, count: (n + 63) >> 6)
        table.withUnsafeBufferPointer { t in
            words.withUnsafeMutableBufferPointer { w in
                func keep<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) {
                    for k in 0..<w.count {
                        let first = k << 6, last = Swift.min(n, first + 64)
                        var word: UInt64 = 0
                        for i in first..<last { word |= t[Int(codes[i])] << UInt64(i - first) }
                        w[k] = word
                    }
                }
                s.codes.withLanes(keep, keep, keep)
            }
        }
        if let valid = c.validity {
            valid.words.withUnsafeBufferPointer { v in
                for k in words.indices { words[k] &= v[k] }
            }
        }
        return Bitmap(words: words, count: n)
    }

    static func against(_ c: Column, _ k: Value, _ op: BinaryOp, _ n: Int) -> [Bool] {
        var out = [Bool](repeating: false, count: n)
        switch c.storage {
        case .string(let s):
            guard case .string(let key) = k else { return out }
            // Decide once per distinct value.
            let table = s.dictionary.map { d in holds(op, compareText(d, key)) }
            out = n == s.codes.count ? s.codes.through(table) : (0..<n).map { table[Int(s.codes[$0])] }
        case .int(let a):
            if case .int(let key) = k {
                a.withUnsafeBufferPointer { p in
                    switch op {
                    case .equal: for i in 0..<n { out[i] = p[i] == key }
                    case .notEqual: for i in 0..<n { out[i] = p[i] != key }
                    case .less: for i in 0..<n { out[i] = p[i] < key }
                    case .lessEqual: for i in 0..<n { out[i] = p[i] <= key }
                    case .greater: for i in 0..<n { out[i] = p[i] > key }
                    case .greaterEqual: for i in 0..<n { out[i] = p[i] >= key }
                    default: break
                    }
                }
            } else if let key = k.doubleValue {
                for i in 0..<n { out[i] = holds(op, order(Double(a[i]), key)) }
            }
        case .double(let a):
            guard let key = k.doubleValue else { return out }
            guard !key.isNaN else {
                for i in 0..<n { out[i] = holds(op, order(a[i], key)) }
                return out
            }
            // NaN is above every number: it passes > and >=, and only those.
            a.withUnsafeBufferPointer { p in
                switch op {
                case .equal: for i in 0..<n { out[i] = p[i] == key }
                case .notEqual: for i in 0..<n { out[i] = p[i] != key }
                case .less: for i in 0..<n { out[i] = p[i] < key }
                case .lessEqual: for i in 0..<n { out[i] = p[i] <= key }
                case .greater: for i in 0..<n { out[i] = p[i] > key || p[i].isNaN }
                case .greaterEqual: for i in 0..<n { out[i] = p[i] >= key || p[i].isNaN }
                default: break
                }
            }
        case .timestamp(let a), .duration(let a):
            let key: Int64
            switch k {
            case .timestamp(let x), .duration(let x), .int(let x): key = x
            default: return out
            }
            for i in 0..<n { out[i] = holds(op, a[i] == key ? 0 : (a[i] < key ? -1 : 1)) }
        case .bool(let a):
            guard case .bool(let key) = k else { return out }
            for i in 0..<n { out[i] = holds(op, a[i] == key ? 0 : (!a[i] ? -1 : 1)) }
        case .geometry(let g):
            guard case .geometry(let key) = k, op == .equal || op == .notEqual else { return out }
            for i in 0..<n { out[i] = (g[i] == key) == (op == .equal) }
        case .null:
            break
        }
        return out
    }

    /// `x in (a, b, …)` by three-valued logic, as SQL has it: true when x equals one of them,
    /// unknown (null) when it equals none but the list holds a null (the null might be x),
    /// false otherwise; unknown when x is null. `not in` is the negation, so unknown stays
    /// unknown: `5 not in (1, null)` keeps no row.
    static func inList(_ v: Vector, _ values: [Value], negated: Bool, _ n: Int) -> Vector {
        let listHasNull = values.contains { $0.isNull }
        let present = values.filter { !$0.isNull }
        switch v {
        case .constant(let x, _):
            if x.isNull { return .constant(.null, .bool) }
            if present.contains(where: { compareValues(x, $0) == 0 }) { return .constant(.bool(!negated), .bool) }
            return listHasNull ? .constant(.null, .bool) : .constant(.bool(negated), .bool)
        case .column(let c):
            var out = [Bool](repeating: false, count: n)
            // A row is unknown when its value is null, or when it is found nowhere and the list has a null.
            var known = c.validity ?? Bitmap(count: n, value: true)
            if case .null = c.storage { known = Bitmap(count: n, value: false) }
            var found = [Bool](repeating: false, count: n)
            switch c.storage {
            case .string(let s):
                let wanted = Set(present.compactMap { if case .string(let x) = $0 { return x } else { return nil } })
                let table = s.dictionary.map { wanted.contains($0) }
                found = n == s.codes.count ? s.codes.through(table) : (0..<n).map { table[Int(s.codes[$0])] }
            case .null:
                break
            default:
                for i in 0..<n {
                    let x = c.value(at: i)
                    found[i] = present.contains { compareValues(x, $0) == 0 }
                }
            }
            for i in 0..<n {
                out[i] = found[i] != negated
                if !found[i] && listHasNull { known[i] = false }
            }
            return .column(Column(name: "", storage: .bool(out), validity: known))
        }
    }
}

extension BinaryOp {
    /// The operator with its sides swapped: 5 < x is x > 5.
    var flipped: BinaryOp {
        switch self {
        case .less: return .greater
        case .lessEqual: return .greaterEqual
        case .greater: return .less
        case .greaterEqual: return .lessEqual
        default: return self
        }
    }
}

/// contains, starts with, ends with (ignoring case) and ~ (a regular expression). Loops look
/// at the cancellation flag every 4,096 texts, and a regular expression within each match.
enum TextMatch {
    static func match(_ op: BinaryOp, _ a: Vector, _ b: Vector, _ n: Int, cancel: CancellationFlag?) throws -> Vector {
        guard case .constant(let k, _) = b, case .string(let needle) = k else {
            // Pattern per row: slow path, compiled again only where it changes.
            var out = [Value](repeating: .null, count: n)
            var compiled: TextPattern? = nil
            for i in 0..<n where a.isValid(i) && b.isValid(i) {
                if i & 0xFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                if case .string(let s) = a.value(i), case .string(let t) = b.value(i) {
                    if op == .matches && compiled?.pattern != t { compiled = try TextPattern(t, ignoringCase: true) }
                    out[i] = .bool(try test(op, s, t, compiled, cancel: cancel))
                }
            }
            return .column(Column.from(values: out, type: .bool))
        }
        let pattern = op == .matches ? try TextPattern(needle, ignoringCase: true) : nil
        switch a {
        case .constant(let v, _):
            guard case .string(let s) = v else { return .constant(.null, .bool) }
            return .constant(.bool(try test(op, s, needle, pattern, cancel: cancel)), .bool)
        case .column(let c):
            guard case .string(let s) = c.storage else {
                if case .null = c.storage { return .constant(.null, .bool) }
                throw Diagnostic("\(op.rawValue) works on text")
            }
            var table: [Bool] = []
            table.reserveCapacity(s.dictionary.count)
            for (k, text) in s.dictionary.enumerated() {
                if k & 0xFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                table.append(try test(op, text, needle, pattern, cancel: cancel))
            }
            let out = n == s.codes.count ? s.codes.through(table) : (0..<n).map { table[Int(s.codes[$0])] }
            return .column(Column(name: "", storage: .bool(out), validity: c.validity))
        }
    }

    static func test(_ op: BinaryOp, _ s: String, _ t: String, _ pattern: TextPattern?, cancel: CancellationFlag?) throws -> Bool {
        switch op {
        case .contains: return s.range(of: t, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        case .startsWith: return s.lowercased().hasPrefix(t.lowercased())
        case .endsWith: return s.lowercased().hasSuffix(t.lowercased())
        case .matches: return try (pattern ?? TextPattern(t, ignoringCase: true)).matches(s, cancel: cancel)
        default: return false
        }
    }
}

import Foundation
