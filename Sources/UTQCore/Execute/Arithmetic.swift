import Foundation

/// A value handed to the workers of one loop, which only read it (a closure over buffers
/// that each worker writes a different stretch of).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// + - * / % over numbers, durations, timestamps and text (+ joins text).
/// Division by zero gives null, not an error: a rate over an empty group is unknown.
enum Arithmetic {
    /// Integer-like storage (int, timestamp, duration) as Int64s.
    static func ints(_ v: Vector, _ n: Int) -> [Int64] {
        switch v {
        case .constant(let value, _):
            switch value {
            case .int(let x), .timestamp(let x), .duration(let x): return Array(repeating: x, count: n)
            case .double(let x): return Array(repeating: Checked.int64(x) ?? 0, count: n)
            default: return Array(repeating: 0, count: n)
            }
        case .column(let c):
            switch c.storage {
            case .int(let a), .timestamp(let a), .duration(let a): return a
            case .double(let a): return a.map { Checked.int64($0) ?? 0 }
            case .bool(let a): return a.map { $0 ? 1 : 0 }
            default: return Array(repeating: 0, count: n)
            }
        }
    }

    /// Numbers as Doubles; durations in microseconds.
    static func doubles(_ v: Vector, _ n: Int) -> [Double] {
        switch v {
        case .constant(let value, _):
            switch value {
            case .int(let x), .timestamp(let x), .duration(let x): return Array(repeating: Double(x), count: n)
            case .double(let x): return Array(repeating: x, count: n)
            default: return Array(repeating: 0, count: n)
            }
        case .column(let c):
            switch c.storage {
            case .int(let a), .timestamp(let a), .duration(let a): return a.map { Double($0) }
            case .double(let a): return a
            default: return Array(repeating: 0, count: n)
            }
        }
    }

    static func negate(_ v: Vector, _ n: Int) throws -> Vector {
        switch v {
        case .constant(let value, let t):
            switch value {
            case .int(let x):
                guard let r = Checked.negate(x) else { throw ValueOutOfRange(kind: .wholeNumber, row: 0) }
                return .constant(.int(r), t)
            case .double(let x): return .constant(.double(-x), t)
            case .duration(let x):
                guard let r = Checked.negate(x) else { throw ValueOutOfRange(kind: .duration, row: 0) }
                return .constant(.duration(r), t)
            default: return v
            }
        case .column(let c):
            func negated(_ a: [Int64], _ kind: ValueOutOfRange.Kind) throws -> [Int64] {
                var out = a
                for i in 0..<a.count {
                    guard let r = Checked.negate(a[i]) else {
                        if c.isValid(i) { throw ValueOutOfRange(kind: kind, row: i) }
                        continue
                    }
                    out[i] = r
                }
                return out
            }
            switch c.storage {
            case .int(let a): return .column(Column(name: "", storage: .int(try negated(a, .wholeNumber)), validity: c.validity))
            case .double(let a): return .column(Column(name: "", storage: .double(a.map { -$0 }), validity: c.validity))
            case .duration(let a): return .column(Column(name: "", storage: .duration(try negated(a, .duration)), validity: c.validity, unit: c.unit))
            default: throw Diagnostic("only numbers and durations can be negated")
            }
        }
    }

    /// x op y for each pair of rows, without the checks an indexed loop over arrays pays for.
    /// One loop per operator, written out, so each is a plain vector loop rather than a call per row.
    static func zipMap(_ x: [Double], _ y: [Double], _ n: Int, _ op: BinaryOp) -> [Double] {
        [Double](unsafeUninitializedCapacity: n) { out, made in
            x.withUnsafeBufferPointer { xs in y.withUnsafeBufferPointer { ys in
                inParts(n) { range in
                    switch op {
                    case .add: for i in range { out[i] = xs[i] + ys[i] }
                    case .subtract: for i in range { out[i] = xs[i] - ys[i] }
                    case .multiply: for i in range { out[i] = xs[i] * ys[i] }
                    case .divide: for i in range { out[i] = xs[i] / ys[i] }
                    default: for i in range { out[i] = 0 }
                    }
                }
            } }
            made = n
        }
    }

    /// op over a column and a constant number, in either order; nil for other pairs and for
    /// a division by a constant zero (whose rows become null the general way).
    static func scalarMap(_ op: BinaryOp, _ a: Vector, _ b: Vector, _ n: Int) -> [Double]? {
        func number(_ v: Vector) -> Double? {
            guard case .constant(let value, _) = v else { return nil }
            switch value {
            case .int(let x): return Double(x)
            case .double(let x): return x
            default: return nil
            }
        }
        func column(_ v: Vector) -> [Double]? {
            guard case .column(let c) = v else { return nil }
            switch c.storage {
            case .double(let d): return d
            case .int(let a): return a.map { Double($0) }
            default: return nil
            }
        }
        let constantFirst: Bool
        let k: Double, xs: [Double]
        if let c = number(b), let x = column(a) { constantFirst = false; k = c; xs = x }
        else if let c = number(a), let x = column(b) { constantFirst = true; k = c; xs = x }
        else { return nil }
        if op == .divide && !constantFirst && k == 0 { return nil }
        if op == .divide && constantFirst { return nil }  // k / x: zeros in x become null, the general way
        return [Double](unsafeUninitializedCapacity: n) { out, made in
            xs.withUnsafeBufferPointer { x in
                inParts(n) { range in
                    switch op {
                    case .add: for i in range { out[i] = x[i] + k }
                    case .subtract: if constantFirst { for i in range { out[i] = k - x[i] } } else { for i in range { out[i] = x[i] - k } }
                    case .multiply: for i in range { out[i] = x[i] * k }
                    case .divide: for i in range { out[i] = x[i] / k }
                    default: for i in range { out[i] = 0 }
                    }
                }
            }
            made = n
        }
    }

    /// A loop over n rows, on every core when there are millions (each core a stretch).
    @inline(__always)
    static func inParts(_ n: Int, _ body: (Range<Int>) -> Void) {
        let workers = n >= 1 << 20 ? Workers.available : 1
        if workers == 1 { body(0..<n); return }
        withoutActuallyEscaping(body) { body in
            let run = UnsafeSendable(body)
            DispatchQueue.concurrentPerform(iterations: workers) { w in run.value(n * w / workers ..< n * (w + 1) / workers) }
        }
    }

    static func apply(_ op: BinaryOp, _ a: Vector, _ b: Vector, resultType: DataType, _ n: Int) throws -> Vector {
        var valid = combinedValidity(a, b, n)
        func mark(_ i: Int) {
            if valid == nil { valid = Bitmap(count: n, value: true) }
            valid![i] = false
        }
        switch resultType {
        case .string:
            // Text joined row by row.
            var values = [Value](repeating: .null, count: n)
            for i in 0..<n where a.isValid(i) && b.isValid(i) {
                values[i] = .string(a.value(i).plainText + b.value(i).plainText)
            }
            return .column(Column.from(values: values, type: .string))
        case .int:
            let x = ints(a, n), y = ints(b, n)
            var out = [Int64](repeating: 0, count: n)
            // A result past 64 bits is an error at its row (a null row's value is not used).
            func checked(_ f: (Int64, Int64) -> Int64?) throws {
                for i in 0..<n {
                    if let r = f(x[i], y[i]) { out[i] = r } else if valid?[i] ?? true { throw ValueOutOfRange(kind: .wholeNumber, row: i) }
                }
            }
            switch op {
            case .add: try checked(Checked.add)
            case .subtract: try checked(Checked.subtract)
            case .multiply: try checked(Checked.multiply)
            case .modulo:
                for i in 0..<n { if y[i] == 0 { mark(i) } else { out[i] = CivilTime.floorMod(x[i], y[i]) } }
            case .divide:
                for i in 0..<n { if y[i] == 0 { mark(i) } else { out[i] = CivilTime.floorDiv(x[i], y[i]) } }
            default: break
            }
            return .column(Column(name: "", storage: .int(out), validity: valid))
        case .double:
            // duration / duration is a ratio; everything else is plain numbers.
            // A number and a column (x * 2): one loop with the number in a register, no
            // column of copies of it.
            if op != .modulo, let out = scalarMap(op, a, b, n) {
                return .column(Column(name: "", storage: .double(out), validity: valid))
            }
            let x = doubles(a, n), y = doubles(b, n)
            var out: [Double]
            switch op {
            case .add: out = zipMap(x, y, n, .add)
            case .subtract: out = zipMap(x, y, n, .subtract)
            case .multiply: out = zipMap(x, y, n, .multiply)
            case .divide:
                // Divided without a test per row (so it runs four to a register), then rows over zero made null.
                out = zipMap(x, y, n, .divide)
                // Counting zeros first is a vector loop; the marking loop runs only when there are some.
                let zeros = y.withUnsafeBufferPointer { ys in
                    var count = 0
                    for i in 0..<n { count &+= ys[i] == 0 ? 1 : 0 }
                    return count
                }
                if zeros > 0 { y.withUnsafeBufferPointer { ys in for i in 0..<n where ys[i] == 0 { mark(i); out[i] = 0 } } }
            case .modulo:
                out = [Double](repeating: 0, count: n)
                for i in 0..<n {
                    // The divisor's sign, as for whole numbers (CivilTime.floorMod): 7 % -3 is -2.
                    if y[i] == 0 { mark(i) } else { let r = x[i].truncatingRemainder(dividingBy: y[i]); out[i] = r != 0 && (r < 0) != (y[i] < 0) ? r + y[i] : r }
                }
            default: out = [Double](repeating: 0, count: n)
            }
            return .column(Column(name: "", storage: .double(out), validity: valid))
        case .duration, .timestamp:
            let scaled = a.type.isNumeric || b.type.isNumeric  // duration * 2, 2 * duration, duration / 2
            var out = [Int64](repeating: 0, count: n)
            let kind: ValueOutOfRange.Kind = resultType == .duration ? .duration : .time
            // A result that does not fit (or, for a time, falls outside the years 1 to 9999)
            // is an error at its row.
            func put(_ r: Int64?, _ i: Int) throws {
                if let r, resultType == .duration || Checked.isTime(r) { out[i] = r }
                else if valid?[i] ?? true { throw ValueOutOfRange(kind: kind, row: i) }
            }
            if scaled {
                let x = doubles(a, n), y = doubles(b, n)
                switch op {
                case .multiply: for i in 0..<n { try put(Checked.int64((x[i] * y[i]).rounded()), i) }
                case .divide: for i in 0..<n { if y[i] == 0 { mark(i) } else { try put(Checked.int64((x[i] / y[i]).rounded()), i) } }
                default: throw Diagnostic("a duration can only be multiplied or divided by a number")
                }
            } else {
                let x = ints(a, n), y = ints(b, n)
                switch op {
                case .add: for i in 0..<n { try put(Checked.add(x[i], y[i]), i) }
                case .subtract: for i in 0..<n { try put(Checked.subtract(x[i], y[i]), i) }
                case .modulo: for i in 0..<n { if y[i] == 0 { mark(i) } else { out[i] = CivilTime.floorMod(x[i], y[i]) } }
                default: throw Diagnostic("times can be added to and subtracted from, not \(op.rawValue)")
                }
            }
            let storage: Column.Storage = resultType == .duration ? .duration(out) : .timestamp(out)
            return .column(Column(name: "", storage: storage, validity: valid))
        default:
            throw Diagnostic("cannot compute \(op.rawValue) on \(a.type.displayName) and \(b.type.displayName)")
        }
    }
}
