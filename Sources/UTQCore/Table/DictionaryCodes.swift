/// A text column's codes at rest in the narrowest width that holds its dictionary: a byte a
/// row for up to 256 distinct values (legends, statuses, weekdays, route ids), two bytes up
/// to 65,536 (stops, streets), four past that (trips, riders). At a hundred million rows a
/// legend is 100 MB rather than 400, and a pass over it reads a quarter of the memory.
///
/// Reading one code (`codes[row]`) works at any width; a loop over all of them asks for the
/// width once (`withLanes`) and runs as a specialised copy of itself for each.
public struct DictionaryCodes: Sendable, RandomAccessCollection, Equatable {
    public enum Lanes: Sendable {
        case u8([UInt8])
        case u16([UInt16])
        case u32([UInt32])
    }

    public let lanes: Lanes

    public init(lanes: Lanes) { self.lanes = lanes }

    /// `wide` in the width a dictionary of `values` entries needs. A code at or past
    /// `values` (a null row's placeholder) keeps only its low bits.
    public init(_ wide: [UInt32], values: Int) {
        if values <= 1 << 8 {
            lanes = .u8(DictionaryCodes.converted(wide))
        } else if values <= 1 << 16 {
            lanes = .u16(DictionaryCodes.converted(wide))
        } else {
            lanes = .u32(wide)
        }
    }

    /// The same codes, whatever the widths they are kept in.
    public static func == (a: DictionaryCodes, b: DictionaryCodes) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }

    /// Bytes a row.
    public var width: Int {
        switch lanes {
        case .u8: return 1
        case .u16: return 2
        case .u32: return 4
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public var count: Int {
        switch lanes {
        case .u8(let a): return a.count
        case .u16(let a): return a.count
        case .u32(let a): return a.count
        }
    }

    @inline(__always)
    public subscript(row: Int) -> UInt32 {
        switch lanes {
        case .u8(let a): return UInt32(a[row])
        case .u16(let a): return UInt32(a[row])
        case .u32(let a): return a[row]
        }
    }

    /// The codes as 32-bit numbers: the array itself when they are already, else a copy.
    public var wide: [UInt32] {
        switch lanes {
        case .u8(let a): return DictionaryCodes.converted(a)
        case .u16(let a): return DictionaryCodes.converted(a)
        case .u32(let a): return a
        }
    }

    /// Runs the body that matches the codes' width over them. Pass one generic function
    /// three times (`codes.withLanes(run, run, run)`) to get a loop compiled for each width.
    @inline(__always)
    public func withLanes<R>(_ u8: (UnsafeBufferPointer<UInt8>) throws -> R,
                             _ u16: (UnsafeBufferPointer<UInt16>) throws -> R,
                             _ u32: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        switch lanes {
        case .u8(let a): return try a.withUnsafeBufferPointer(u8)
        case .u16(let a): return try a.withUnsafeBufferPointer(u16)
        case .u32(let a): return try a.withUnsafeBufferPointer(u32)
        }
    }

    /// Each code through `map`, kept in this width (`map` must give codes of the same
    /// dictionary size or smaller: a remap after dropping unused values).
    public func mapped(values: Int, _ map: (UInt32) -> UInt32) -> DictionaryCodes {
        DictionaryCodes(lanes: {
            switch lanes {
            case .u8(let a): return .u8(a.map { UInt8(truncatingIfNeeded: map(UInt32($0))) })
            case .u16(let a): return values <= 1 << 8
                ? .u8(a.map { UInt8(truncatingIfNeeded: map(UInt32($0))) })
                : .u16(a.map { UInt16(truncatingIfNeeded: map(UInt32($0))) })
            case .u32(let a): return DictionaryCodes(a.map(map), values: values).lanes
            }
        }())
    }

    /// Each row's entry of a table of one entry a dictionary value (a test decided once a
    /// value, a rank, a length). Every code must index the table.
    public func through<T>(_ table: [T]) -> [T] {
        let n = count
        return table.withUnsafeBufferPointer { t in
            [T](unsafeUninitializedCapacity: n) { out, made in
                func look<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) {
                    for i in 0..<n { (out.baseAddress! + i).initialize(to: t[Int(codes[i])]) }
                }
                withLanes(look, look, look)
                made = n
            }
        }
    }

    /// The copies a gather makes, at the same width.
    func taken(_ take: some ElementTaker) -> DictionaryCodes {
        switch lanes {
        case .u8(let a): return DictionaryCodes(lanes: .u8(take(a, 0)))
        case .u16(let a): return DictionaryCodes(lanes: .u16(take(a, 0)))
        case .u32(let a): return DictionaryCodes(lanes: .u32(take(a, 0)))
        }
    }

    /// Each core converts its share of the rows: a load's codes arrive 32 bits wide and are
    /// narrowed, and at ten million rows one core takes as long as reading a column's text.
    static func converted<S: FixedWidthInteger & UnsignedInteger, T: FixedWidthInteger & UnsignedInteger>(_ from: [S]) -> [T] {
        let n = from.count
        return [T](unsafeUninitializedCapacity: n) { out, made in
            from.withUnsafeBufferPointer { src in
                let parts = Workers.parts(rows: n)
                Parallel.each(parts) { p in
                    let lo = n * p / parts, hi = n * (p + 1) / parts
                    for i in lo..<hi { out[i] = T(truncatingIfNeeded: src[i]) }
                }
            }
            made = n
        }
    }
}
