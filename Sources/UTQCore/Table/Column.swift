import CIntrinsics
/// One column of a table: a typed array plus a validity bitmap for nulls.
/// Strings are dictionary-encoded (codes into a list of distinct values).
public struct Column: Sendable {
    public var name: String
    public var storage: Storage {
        didSet { facts = ColumnFacts() }  // new values: what was known of the old ones is not
    }
    /// What was found of the values once and is kept while they stay (ColumnFacts).
    public private(set) var facts = ColumnFacts()
    /// Which rows hold a value; nil when every row does.
    public var validity: Bitmap?
    /// How timestamps and durations are shown (a `day` bucket prints as a date).
    public var unit: DisplayUnit
    /// Timestamps read without an offset: the file meant wall-clock times, so changing
    /// the table's time zone keeps the wall time rather than the instant.
    public var floating = false

    public enum Storage: Sendable {
        case int([Int64])
        case double([Double])
        case bool([Bool])
        case string(StringStorage)
        case timestamp([Int64])
        case duration([Int64])
        case geometry(GeometryStorage)
        case null(Int)
    }

    public init(name: String, storage: Storage, validity: Bitmap? = nil, unit: DisplayUnit = .automatic) {
        self.name = name
        self.storage = storage
        self.validity = validity.flatMap { $0.allSet ? nil : $0 }
        self.unit = unit
    }

    public static func nulls(_ name: String, count: Int) -> Column {
        Column(name: name, storage: .null(count))
    }

    public var type: DataType {
        switch storage {
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .string: return .string
        case .timestamp: return .timestamp
        case .duration: return .duration
        case .geometry: return .geometry
        case .null: return .null
        }
    }

    public var count: Int {
        switch storage {
        case .int(let a): return a.count
        case .double(let a): return a.count
        case .bool(let a): return a.count
        case .string(let s): return s.codes.count
        case .timestamp(let a): return a.count
        case .duration(let a): return a.count
        case .geometry(let g): return g.count
        case .null(let n): return n
        }
    }

    @inline(__always)
    public func isValid(_ row: Int) -> Bool {
        if case .null = storage { return false }
        return validity?[row] ?? true
    }

    public var nullCount: Int {
        if case .null(let n) = storage { return n }
        guard let validity else { return 0 }
        return validity.count - validity.setCount
    }

    public func value(at row: Int) -> Value {
        guard isValid(row) else { return .null }
        switch storage {
        case .int(let a): return .int(a[row])
        case .double(let a): return .double(a[row])
        case .bool(let a): return .bool(a[row])
        case .string(let s): return .string(s.dictionary[Int(s.codes[row])])
        case .timestamp(let a): return .timestamp(a[row])
        case .duration(let a): return .duration(a[row])
        case .geometry(let g): return .geometry(g[row])
        case .null: return .null
        }
    }

    /// The rows at the given indices, in that order. An index of -1 gives a null
    /// (used by left joins for rows without a match).
    /// `parts`: how many cores share the copying (a join gathering one column of millions of
    /// rows, each a read at random, uses both).
    public func gather(_ rows: [Int32], parts: Int = 1) -> Column {
        // -1 is "no row" (a join's unmatched side); OR-ing all the indexes finds one without a branch per row.
        let hasMissing = rows.withUnsafeBufferPointer { r in
            var any: Int32 = 0
            for k in r { any |= k }
            return any < 0
        }
        var validity: Bitmap? = nil
        if self.validity != nil || hasMissing {
            var v = Bitmap(count: rows.count, value: true)
            for (i, r) in rows.enumerated() where r < 0 || !isValid(Int(r)) { v[i] = false }
            validity = v
        }
        /// The values at the row numbers.
        struct AtRows: ElementTaker {
            let rows: [Int32], hasMissing: Bool, parts: Int
            func callAsFunction<T>(_ a: [T], _ fill: T) -> [T] {
                rows.withUnsafeBufferPointer { Column.taken(a, at: $0, less: 0, fill: fill, hasMissing: hasMissing, parts: parts) }
            }
        }
        let storage: Storage
        if case .geometry(let g) = self.storage {
            storage = .geometry(g.gather(rows))
        } else {
            storage = taken(AtRows(rows: rows, hasMissing: hasMissing, parts: parts), count: rows.count)
        }
        return Column(name: name, storage: storage, validity: validity, unit: unit)
    }

    /// A contiguous range of rows.
    public func slice(_ range: Range<Int>) -> Column {
        gather(range.map { Int32($0) })
    }

    public func renamed(_ newName: String) -> Column {
        var c = self
        c.name = newName
        return c
    }

    /// Numeric values as Doubles (ints, doubles, durations in seconds); nil for other types.
    public func doubles() -> [Double]? {
        switch storage {
        case .int(let a): return a.map { Double($0) }
        case .double(let a): return a
        case .duration(let a): return a.map { Double($0) / 1_000_000 }
        default: return nil
        }
    }
}

/// Dictionary-encoded strings: one code per row, each distinct value stored once.
public struct StringStorage: Sendable {
    /// In the narrowest width the dictionary allows (DictionaryCodes): set with the
    /// dictionary, as a new storage, never apart from it.
    public private(set) var codes: DictionaryCodes
    public private(set) var dictionary: [String]
    /// When true the dictionary is in the values' natural order (weekdays Monday first,
    /// legends in their project's order), and sorting follows it instead of the alphabet.
    public var ordered: Bool

    public init(codes: [UInt32], dictionary: [String], ordered: Bool = false) {
        self.init(codes: DictionaryCodes(codes, values: dictionary.count), dictionary: dictionary, ordered: ordered)
    }

    public init(codes: DictionaryCodes, dictionary: [String], ordered: Bool = false) {
        self.codes = codes
        self.dictionary = dictionary
        self.ordered = ordered
    }

    /// Rank of each code for sorting: the dictionary's order when `ordered`, else alphabetical.
    public func ranks() -> [Int32] {
        // Without a flag nothing can stop it.
        (try? ranks(cancel: nil)) ?? []
    }

    /// The rank of each dictionary entry in text order. A million different values take
    /// seconds to order: the flag is looked at every 16,384 comparisons.
    public func ranks(cancel: CancellationFlag?) throws -> [Int32] {
        if ordered { return (0..<dictionary.count).map { Int32($0) } }
        var comparisons = 0
        let sorted = try dictionary.indices.sorted { a, b in
            comparisons &+= 1
            if comparisons & 0x3FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            return TextOrder.less(dictionary[a], dictionary[b])
        }
        var ranks = [Int32](repeating: 0, count: dictionary.count)
        for (rank, code) in sorted.enumerated() { ranks[code] = Int32(rank) }
        return ranks
    }

    /// Drop dictionary entries no row uses (after a filter), keeping their order.
    public func compacted() -> StringStorage {
        var used = [Bool](repeating: false, count: dictionary.count)
        func mark<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) { for c in codes { used[Int(c)] = true } }
        codes.withLanes(mark, mark, mark)
        if !used.contains(false) { return self }
        var remap = [UInt32](repeating: 0, count: dictionary.count)
        var dict: [String] = []
        for (i, u) in used.enumerated() where u {
            remap[i] = UInt32(dict.count)
            dict.append(dictionary[i])
        }
        return StringStorage(codes: codes.mapped(values: dict.count) { remap[Int($0)] }, dictionary: dict, ordered: ordered)
    }
}

/// How text is ordered for people: case-insensitive first, numbers inside text by value
/// ("Line 2" before "Line 10"), then byte order to break ties.
public enum TextOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        let r = compare(a, b)
        return r != 0 ? r < 0 : a < b
    }

    /// Natural comparison: -1, 0 or 1.
    public static func compare(_ a: String, _ b: String) -> Int {
        var i = a.unicodeScalars.makeIterator(), j = b.unicodeScalars.makeIterator()
        var x = i.next(), y = j.next()
        while let cx = x, let cy = y {
            if isDigit(cx) && isDigit(cy) {
                var nx: [Unicode.Scalar] = [], ny: [Unicode.Scalar] = []
                while let c = x, isDigit(c) { nx.append(c); x = i.next() }
                while let c = y, isDigit(c) { ny.append(c); y = j.next() }
                while nx.count > 1 && nx.first == "0" { nx.removeFirst() }
                while ny.count > 1 && ny.first == "0" { ny.removeFirst() }
                if nx.count != ny.count { return nx.count < ny.count ? -1 : 1 }
                for (p, q) in zip(nx, ny) where p != q { return p.value < q.value ? -1 : 1 }
                continue
            }
            let lx = lower(cx), ly = lower(cy)
            if lx != ly { return lx < ly ? -1 : 1 }
            x = i.next(); y = j.next()
        }
        if x == nil && y == nil { return 0 }
        return x == nil ? -1 : 1
    }

    @inline(__always) static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }
    @inline(__always) static func lower(_ c: Unicode.Scalar) -> UInt32 {
        (c.value >= 65 && c.value <= 90) ? c.value + 32 : c.value
    }
}
