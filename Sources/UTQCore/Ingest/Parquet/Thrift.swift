/// Thrift's compact protocol, which Parquet writes its footer and page headers in.
///
/// Only what Parquet uses: structs of numbered fields, lists, binary, and numbers as zigzag
/// varints. The bytes come from a file that may be damaged anywhere, so every read checks its
/// bounds and a struct nests at most `maxDepth` deep; a problem is a `ThriftError` that the
/// reader turns into a message naming the file and the part it was reading.
struct ThriftError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The wire types of the compact protocol.
enum ThriftType: UInt8 {
    case stop = 0, boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7
    case binary = 8, list = 9, set = 10, map = 11, structure = 12
}

/// Reads from bytes the caller holds for as long as the reader is used (a footer, or a
/// column chunk with its page headers).
struct ThriftReader {
    let data: UnsafeRawBufferPointer
    private(set) var pos: Int
    let end: Int
    private var depth = 0
    static let maxDepth = 32

    init(_ data: UnsafeRawBufferPointer, from start: Int = 0) {
        self.data = data
        self.pos = start
        self.end = data.count
    }

    mutating func byte() throws -> UInt8 {
        guard pos < end else { throw ThriftError("it ends in the middle of a value") }
        let b = data[pos]
        pos += 1
        return b
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw ThriftError("a number is longer than ten bytes") }
        }
    }

    mutating func zigzag() throws -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// A 32-bit number: the wire has no narrower varint check of its own.
    mutating func i32() throws -> Int32 {
        let v = try zigzag()
        guard let r = Int32(exactly: v) else { throw ThriftError("a 32-bit number holds \(v)") }
        return r
    }

    mutating func double() throws -> Double {
        guard end - pos >= 8 else { throw ThriftError("it ends in the middle of a number") }
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(data[pos + k]) << UInt64(8 * k) }
        pos += 8
        return Double(bitPattern: bits)
    }

    mutating func binary() throws -> UnsafeRawBufferPointer {
        let n = try varint()
        guard n <= UInt64(end - pos) else { throw ThriftError("a text runs past the end (\(n) bytes)") }
        let s = UnsafeRawBufferPointer(rebasing: data[pos..<(pos + Int(n))])
        pos += Int(n)
        return s
    }

    mutating func string() throws -> String {
        String(decoding: try binary(), as: UTF8.self)
    }

    /// A list's element type and length; the length is checked against the bytes left, as
    /// every element takes at least one (bools and empty structs included).
    mutating func listHeader() throws -> (type: UInt8, count: Int) {
        let h = try byte()
        var n = UInt64(h >> 4)
        if n == 15 { n = try varint() }
        guard n <= UInt64(end - pos) else { throw ThriftError("a list says it has \(n) elements, more than the bytes left") }
        return (h & 0x0F, Int(n))
    }

    /// Reads a struct's fields, handing each field's id and wire type to `body`, which must
    /// read or skip the value.
    mutating func readStruct(_ body: (inout ThriftReader, Int16, UInt8) throws -> Void) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ThriftError("structures nest deeper than \(Self.maxDepth)") }
        var last: Int16 = 0
        while true {
            let h = try byte()
            let type = h & 0x0F
            if type == ThriftType.stop.rawValue { return }
            let delta = Int16(h >> 4)
            let id: Int16
            if delta == 0 {
                let v = try zigzag()
                guard let i = Int16(exactly: v) else { throw ThriftError("a field number is \(v)") }
                id = i
            } else {
                id = last &+ delta
            }
            last = id
            try body(&self, id, type)
        }
    }

    /// A field's value as a number, whatever integer width it was written with.
    mutating func int(_ type: UInt8) throws -> Int64 {
        switch ThriftType(rawValue: type) {
        case .byte: return Int64(Int8(bitPattern: try byte()))
        case .i16, .i32, .i64: return try zigzag()
        default: throw ThriftError("a number was expected, found wire type \(type)")
        }
    }

    mutating func int32(_ type: UInt8) throws -> Int32 {
        let v = try int(type)
        guard let r = Int32(exactly: v) else { throw ThriftError("a 32-bit number holds \(v)") }
        return r
    }

    /// A bool field: its value is in the type.
    func bool(_ type: UInt8) throws -> Bool {
        switch ThriftType(rawValue: type) {
        case .boolTrue: return true
        case .boolFalse: return false
        default: throw ThriftError("true or false was expected, found wire type \(type)")
        }
    }

    mutating func expect(_ type: UInt8, _ wanted: ThriftType) throws {
        guard type == wanted.rawValue else { throw ThriftError("wire type \(wanted) was expected, found \(type)") }
    }

    /// A list of elements read by `element`.
    mutating func list<T>(_ type: UInt8, _ element: (inout ThriftReader, UInt8) throws -> T) throws -> [T] {
        try expect(type, .list)
        let (elementType, n) = try listHeader()
        var out: [T] = []
        out.reserveCapacity(min(n, 1024))
        for _ in 0..<n { out.append(try element(&self, elementType)) }
        return out
    }

    /// Passes over a value of this wire type.
    mutating func skip(_ type: UInt8) throws {
        guard let t = ThriftType(rawValue: type) else { throw ThriftError("unknown wire type \(type)") }
        switch t {
        case .stop: throw ThriftError("a field of type stop")
        case .boolTrue, .boolFalse: return
        case .byte: _ = try byte()
        case .i16, .i32, .i64: _ = try varint()
        case .double:
            guard end - pos >= 8 else { throw ThriftError("it ends in the middle of a number") }
            pos += 8
        case .binary: _ = try binary()
        case .list, .set:
            let (elementType, n) = try listHeader()
            try nested { r in
                for _ in 0..<n {
                    // A bool in a list is a byte of its own.
                    if elementType == ThriftType.boolTrue.rawValue || elementType == ThriftType.boolFalse.rawValue { _ = try r.byte() } else { try r.skip(elementType) }
                }
            }
        case .map:
            let n = try varint()
            guard n <= UInt64(end - pos) else { throw ThriftError("a map says it has \(n) entries, more than the bytes left") }
            if n == 0 { return }
            let types = try byte()
            try nested { r in
                for _ in 0..<n { try r.skip(types >> 4); try r.skip(types & 0x0F) }
            }
        case .structure:
            try readStruct { r, _, type in try r.skip(type) }
        }
    }

    private mutating func nested(_ body: (inout ThriftReader) throws -> Void) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ThriftError("structures nest deeper than \(Self.maxDepth)") }
        try body(&self)
    }
}

/// Writes the compact protocol: the footer and page headers of a Parquet file utq saves.
struct ThriftWriter {
    var bytes: [UInt8] = []
    /// The last field id written in each open struct (ids are written as deltas).
    private var lastIDs: [Int16] = [0]

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func zigzag(_ v: Int64) {
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    mutating func fieldHeader(_ id: Int16, _ type: ThriftType) {
        let delta = id - lastIDs[lastIDs.count - 1]
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            zigzag(Int64(id))
        }
        lastIDs[lastIDs.count - 1] = id
    }

    mutating func field(_ id: Int16, i32 v: Int32) { fieldHeader(id, .i32); zigzag(Int64(v)) }
    mutating func field(_ id: Int16, i64 v: Int64) { fieldHeader(id, .i64); zigzag(v) }
    mutating func field(_ id: Int16, bool v: Bool) { fieldHeader(id, v ? .boolTrue : .boolFalse) }

    mutating func field(_ id: Int16, binary v: [UInt8]) {
        fieldHeader(id, .binary)
        varint(UInt64(v.count))
        bytes.append(contentsOf: v)
    }

    mutating func field(_ id: Int16, string v: String) { field(id, binary: Array(v.utf8)) }

    /// A struct-valued field; `body` writes its fields.
    mutating func field(_ id: Int16, struct body: (inout ThriftWriter) -> Void) {
        fieldHeader(id, .structure)
        structure(body)
    }

    mutating func structure(_ body: (inout ThriftWriter) -> Void) {
        lastIDs.append(0)
        body(&self)
        bytes.append(ThriftType.stop.rawValue)
        lastIDs.removeLast()
    }

    mutating func listHeader(_ id: Int16, _ element: ThriftType, count: Int) {
        fieldHeader(id, .list)
        if count < 15 { bytes.append(UInt8(count) << 4 | element.rawValue) } else {
            bytes.append(0xF0 | element.rawValue)
            varint(UInt64(count))
        }
    }

    mutating func field(_ id: Int16, i32List v: [Int32]) {
        listHeader(id, .i32, count: v.count)
        for x in v { zigzag(Int64(x)) }
    }

    mutating func field(_ id: Int16, stringList v: [String]) {
        listHeader(id, .binary, count: v.count)
        for s in v { varint(UInt64(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
    }

    mutating func field(_ id: Int16, structList count: Int, _ element: (inout ThriftWriter, Int) -> Void) {
        listHeader(id, .structure, count: count)
        for k in 0..<count { structure { element(&$0, k) } }
    }
}
