/// A Parquet file's footer (FileMetaData): the schema, the row groups and where each column
/// chunk lies. Only the fields a reader of flat tables needs are kept; the rest are skipped.
/// Field numbers are those of parquet.thrift.
struct ParquetFooter {
    var schema: [ParquetSchemaElement] = []
    var numRows: Int64 = 0
    var rowGroups: [ParquetRowGroup] = []
    var keyValues: [(key: String, value: String)] = []
    var createdBy: String?

    init(_ r: inout ThriftReader) throws {
        try r.readStruct { r, id, type in
            switch id {
            case 2: schema = try r.list(type) { r, t in try r.expect(t, .structure); return try ParquetSchemaElement(&r) }
            case 3: numRows = try r.int(type)
            case 4: rowGroups = try r.list(type) { r, t in try r.expect(t, .structure); return try ParquetRowGroup(&r) }
            case 5:
                keyValues = try r.list(type) { r, t in
                    try r.expect(t, .structure)
                    var key = "", value = ""
                    try r.readStruct { r, id, type in
                        switch id {
                        case 1: try r.expect(type, .binary); key = try r.string()
                        case 2: try r.expect(type, .binary); value = try r.string()
                        default: try r.skip(type)
                        }
                    }
                    return (key, value)
                }
            case 6: try r.expect(type, .binary); createdBy = try r.string()
            default: try r.skip(type)
            }
        }
    }

    func value(forKey key: String) -> String? { keyValues.first { $0.key == key }?.value }
}

/// Physical types, as parquet.thrift numbers them.
enum ParquetPhysical: Int32 {
    case boolean = 0, int32 = 1, int64 = 2, int96 = 3, float = 4, double = 5, byteArray = 6, fixedLenByteArray = 7

    var name: String {
        switch self {
        case .boolean: return "BOOLEAN"
        case .int32: return "INT32"
        case .int64: return "INT64"
        case .int96: return "INT96"
        case .float: return "FLOAT"
        case .double: return "DOUBLE"
        case .byteArray: return "BYTE_ARRAY"
        case .fixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY"
        }
    }
}

enum ParquetTimeUnit: Equatable { case millis, micros, nanos }

/// The logical type annotation (LogicalType, a union), or the legacy converted type mapped to it.
enum ParquetLogical: Equatable {
    case string, map, list, enumeration, json, bson, uuid, float16, unknown
    case decimal(scale: Int32, precision: Int32)
    case date
    case time(utc: Bool, unit: ParquetTimeUnit)
    case timestamp(utc: Bool, unit: ParquetTimeUnit)
    case integer(bits: Int8, signed: Bool)
    /// INTERVAL (a converted type only): months, days and milliseconds.
    case interval
    /// A logical type this reader does not know (VARIANT, GEOMETRY …), by its field number.
    case other(Int16)
}

struct ParquetSchemaElement {
    var type: ParquetPhysical?
    /// An unknown physical type number: the column cannot be read.
    var unknownType: Int32?
    var typeLength: Int32 = 0
    /// REQUIRED 0, OPTIONAL 1, REPEATED 2.
    var repetition: Int32 = 0
    var name = ""
    var numChildren: Int32 = 0
    var convertedType: Int32?
    var scale: Int32 = 0
    var precision: Int32 = 0
    var logical: ParquetLogical?

    init(name: String) { self.name = name }

    init(_ r: inout ThriftReader) throws {
        try r.readStruct { r, id, type in
            switch id {
            case 1:
                let t = try r.int32(type)
                self.type = ParquetPhysical(rawValue: t)
                if self.type == nil { unknownType = t }
            case 2: typeLength = try r.int32(type)
            case 3: repetition = try r.int32(type)
            case 4: try r.expect(type, .binary); name = try r.string()
            case 5: numChildren = try r.int32(type)
            case 6: convertedType = try r.int32(type)
            case 7: scale = try r.int32(type)
            case 8: precision = try r.int32(type)
            case 10: try r.expect(type, .structure); logical = try Self.logicalType(&r)
            default: try r.skip(type)
            }
        }
    }

    /// The annotation: the logical type when written, else the converted type's meaning.
    var annotation: ParquetLogical? {
        if let logical { return logical }
        switch convertedType {
        case 0?: return .string
        case 1?, 2?: return .map
        case 3?: return .list
        case 4?: return .enumeration
        case 5?: return .decimal(scale: scale, precision: precision)
        case 6?: return .date
        case 7?: return .time(utc: true, unit: .millis)
        case 8?: return .time(utc: true, unit: .micros)
        case 9?: return .timestamp(utc: true, unit: .millis)
        case 10?: return .timestamp(utc: true, unit: .micros)
        case 11?: return .integer(bits: 8, signed: false)
        case 12?: return .integer(bits: 16, signed: false)
        case 13?: return .integer(bits: 32, signed: false)
        case 14?: return .integer(bits: 64, signed: false)
        case 15?: return .integer(bits: 8, signed: true)
        case 16?: return .integer(bits: 16, signed: true)
        case 17?: return .integer(bits: 32, signed: true)
        case 18?: return .integer(bits: 64, signed: true)
        case 19?: return .json
        case 20?: return .bson
        case 21?: return .interval
        default: return nil
        }
    }

    static func logicalType(_ r: inout ThriftReader) throws -> ParquetLogical? {
        var result: ParquetLogical? = nil
        try r.readStruct { r, id, type in
            switch id {
            case 1: result = .string
            case 2: result = .map
            case 3: result = .list
            case 4: result = .enumeration
            case 5:
                var scale: Int32 = 0, precision: Int32 = 0
                try r.readStruct { r, id, type in
                    switch id {
                    case 1: scale = try r.int32(type)
                    case 2: precision = try r.int32(type)
                    default: try r.skip(type)
                    }
                }
                result = .decimal(scale: scale, precision: precision)
                return
            case 6: result = .date
            case 7, 8:
                var utc = false, unit = ParquetTimeUnit.millis
                try r.readStruct { r, field, type in
                    switch field {
                    case 1: utc = try r.bool(type)
                    case 2: try r.expect(type, .structure); unit = try timeUnit(&r)
                    default: try r.skip(type)
                    }
                }
                result = id == 7 ? .time(utc: utc, unit: unit) : .timestamp(utc: utc, unit: unit)
                return
            case 10:
                var bits: Int8 = 64, signed = true
                try r.readStruct { r, id, type in
                    switch id {
                    case 1:
                        let v = try r.int(type)
                        guard let b = Int8(exactly: v) else { throw ThriftError("an integer type of \(v) bits") }
                        bits = b
                    case 2: signed = try r.bool(type)
                    default: try r.skip(type)
                    }
                }
                result = .integer(bits: bits, signed: signed)
                return
            case 11: result = .unknown
            case 12: result = .json
            case 13: result = .bson
            case 14: result = .uuid
            case 15: result = .float16
            default: result = .other(id)
            }
            try r.skip(type)
        }
        return result
    }

    static func timeUnit(_ r: inout ThriftReader) throws -> ParquetTimeUnit {
        var unit = ParquetTimeUnit.millis
        try r.readStruct { r, id, type in
            switch id {
            case 1: unit = .millis
            case 2: unit = .micros
            case 3: unit = .nanos
            default: break
            }
            try r.skip(type)
        }
        return unit
    }
}

struct ParquetRowGroup {
    var columns: [ParquetColumnChunk] = []
    var numRows: Int64 = 0

    init(_ r: inout ThriftReader) throws {
        try r.readStruct { r, id, type in
            switch id {
            case 1: columns = try r.list(type) { r, t in try r.expect(t, .structure); return try ParquetColumnChunk(&r) }
            case 3: numRows = try r.int(type)
            default: try r.skip(type)
            }
        }
    }
}

/// Where a column's values for one row group are, and how they are written.
struct ParquetColumnChunk {
    /// Set when the chunk lives in another file, which this reader does not follow.
    var filePath: String?
    var hasMetadata = false
    var type: Int32 = -1
    var codec: Int32 = 0
    var numValues: Int64 = 0
    var totalCompressedSize: Int64 = 0
    var dataPageOffset: Int64 = 0
    var dictionaryPageOffset: Int64?
    var path: [String] = []
    var statistics: ParquetChunkStatistics?

    init(_ r: inout ThriftReader) throws {
        try r.readStruct { r, id, type in
            switch id {
            case 1: try r.expect(type, .binary); filePath = try r.string()
            case 3:
                try r.expect(type, .structure)
                hasMetadata = true
                try readMetadata(&r)
            default: try r.skip(type)
            }
        }
    }

    private mutating func readMetadata(_ r: inout ThriftReader) throws {
        try r.readStruct { r, id, type in
            switch id {
            case 1: self.type = try r.int32(type)
            case 3: path = try r.list(type) { r, t in try r.expect(t, .binary); return try r.string() }
            case 4: codec = try r.int32(type)
            case 5: numValues = try r.int(type)
            case 7: totalCompressedSize = try r.int(type)
            case 9: dataPageOffset = try r.int(type)
            case 11: dictionaryPageOffset = try r.int(type)
            case 12: try r.expect(type, .structure); statistics = try ParquetChunkStatistics(&r)
            default: try r.skip(type)
            }
        }
    }

    /// The bytes the chunk takes in the file: from its dictionary page when it has one.
    var byteRange: (start: Int64, count: Int64) {
        var start = dataPageOffset
        // Some writers put 0 for "no dictionary page"; a dictionary comes before the data.
        if let d = dictionaryPageOffset, d > 0, d < start { start = d }
        return (start, totalCompressedSize)
    }
}
