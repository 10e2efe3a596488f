/// How each column of a Parquet file becomes a utq column: its physical type and annotation
/// decide the lane the values are decoded into (whole numbers, decimals, booleans or text
/// codes) and what is done to them after (time units, dates, zones).
struct ParquetColumnPlan {
    var name: String
    /// Which leaf of the schema, and so which column chunk of each row group.
    var leaf: Int
    var physical: ParquetPhysical
    var typeLength: Int
    /// 1 for an optional column (definition levels say which rows hold a value), else 0.
    var maxDefinition: Int
    var read: Read
    var output: Output
    /// What whole numbers become after decoding, for times and durations.
    var time: TimeConversion?

    enum Read: Equatable {
        /// INT32 (sign-extended), INT64, and INT96 (as wall-clock microseconds).
        case ints
        /// INT32 holding UINT_8, UINT_16 or UINT_32.
        case unsigned32
        /// INT64 holding UINT_64: values past Int64 make the column decimals.
        case unsigned64
        /// FLOAT, DOUBLE.
        case floats
        case bools
        /// A decimal's unscaled value (INT32, INT64 or big-endian bytes) over 10^scale.
        case decimal(scale: Int)
        case float16
        /// INTERVAL's months, days and milliseconds as a duration.
        case interval
        case text(TextMode)
        /// A column of the null type: no values at all.
        case none
    }

    enum TextMode: Equatable {
        /// Annotated as text (STRING, ENUM, JSON): bytes that are not UTF-8 show as U+FFFD.
        case utf8
        /// Unannotated BYTE_ARRAY: text when every value is UTF-8, else hexadecimal.
        case bytes
        case hex
        case uuid
    }

    enum Output: Equatable {
        case int, double, bool, text, null
        case timestamp(day: Bool, floating: Bool)
        case duration(clock: Bool)
    }

    struct TimeConversion: Equatable {
        var multiplier: Int64 = 1
        var divisor: Int64 = 1
        /// Wall-clock values (isAdjustedToUTC false, dates, INT96): placed in the table's zone.
        var local = false
        var isTimestamp = true
    }

    enum Lane { case int, double, bool, code, none }

    var lane: Lane {
        switch read {
        case .ints, .unsigned32, .unsigned64, .interval: return .int
        case .floats, .decimal, .float16: return .double
        case .bools: return .bool
        case .text: return .code
        case .none: return .none
        }
    }
}

enum ParquetSchema {
    /// The plans of the columns utq reads, and a note for each it leaves out (nested ones).
    static func plans(_ schema: [ParquetSchemaElement]) throws -> (plans: [ParquetColumnPlan], notes: [String], leaves: Int) {
        guard let root = schema.first else { throw ThriftError("the schema is empty") }
        var plans: [ParquetColumnPlan] = []
        var notes: [String] = []
        var index = 1
        var leaf = 0
        for _ in 0..<max(0, Int(root.numChildren)) {
            guard index < schema.count else { throw ThriftError("the schema names fewer columns than its root says") }
            let e = schema[index]
            if e.numChildren > 0 || e.repetition == 2 {
                let (next, leaves) = try subtree(schema, at: index)
                let kind = e.annotation == .list || e.repetition == 2 ? "a list" : e.annotation == .map ? "a map" : "a group of columns (a struct)"
                notes.append("\(e.name) is \(kind), which utq does not read; the other columns are loaded")
                index = next
                leaf += leaves
                continue
            }
            guard e.numChildren == 0 else { throw ThriftError("column \(e.name) has \(e.numChildren) children") }
            guard let physical = e.type else {
                notes.append("\(e.name) has physical type number \(e.unknownType.map(String.init) ?? "(none)"), which Parquet does not define; it is left out")
                index += 1
                leaf += 1
                continue
            }
            var (plan, note) = plan(e, physical: physical)
            plan.leaf = leaf
            plans.append(plan)
            if let note { notes.append(note) }
            index += 1
            leaf += 1
        }
        guard index == schema.count else { throw ThriftError("the schema has \(schema.count - index) elements past its root's children") }
        return (plans, notes, leaf)
    }

    /// The element after the subtree starting at `i`, and the leaves it holds.
    static func subtree(_ schema: [ParquetSchemaElement], at i: Int) throws -> (next: Int, leaves: Int) {
        var pending = 1, leaves = 0, j = i
        while pending > 0 {
            guard j < schema.count else { throw ThriftError("a nested column names more children than the schema has") }
            let c = Int(schema[j].numChildren)
            guard c >= 0 else { throw ThriftError("a column has \(c) children") }
            pending -= 1
            if c == 0 { leaves += 1 } else { pending += c }
            j += 1
        }
        return (j, leaves)
    }

    static func plan(_ e: ParquetSchemaElement, physical: ParquetPhysical) -> (ParquetColumnPlan, String?) {
        var p = ParquetColumnPlan(name: e.name, leaf: 0, physical: physical, typeLength: Int(e.typeLength),
                                  maxDefinition: e.repetition == 1 ? 1 : 0, read: .ints, output: .int)
        let annotation = e.annotation
        func time(_ unit: ParquetTimeUnit) -> ParquetColumnPlan.TimeConversion {
            switch unit {
            case .millis: return .init(multiplier: 1000)
            case .micros: return .init()
            case .nanos: return .init(divisor: 1000)
            }
        }
        var note: String? = nil
        func unknown(_ what: String) {
            note = "\(e.name) is annotated \(what), which utq does not know; it is read as its stored \(physical.name) values"
        }
        switch (physical, annotation) {
        case (_, .unknown?):
            p.read = .none; p.output = .null
        case (.boolean, _):
            p.read = .bools; p.output = .bool
        case (.int32, .integer(_, false)?):
            p.read = .unsigned32
        case (.int64, .integer(_, false)?):
            p.read = .unsigned64
        case (.int32, .date?):
            p.output = .timestamp(day: true, floating: true)
            p.time = .init(multiplier: 86_400_000_000, local: true)
        case (.int32, .time(_, let unit)?), (.int64, .time(_, let unit)?):
            p.output = .duration(clock: true)
            p.time = time(unit)
            p.time?.isTimestamp = false
        case (.int64, .timestamp(let utc, let unit)?):
            p.output = .timestamp(day: false, floating: !utc)
            p.time = time(unit)
            p.time?.local = !utc
        case (.int96, _):
            // Impala's and Spark's timestamps: pyarrow and DuckDB read them as wall-clock times.
            p.output = .timestamp(day: false, floating: true)
            p.time = .init(local: true)
        case (.int32, .decimal(let scale, _)?), (.int64, .decimal(let scale, _)?), (.byteArray, .decimal(let scale, _)?),
             (.fixedLenByteArray, .decimal(let scale, _)?):
            p.read = .decimal(scale: Int(scale)); p.output = .double
        case (.int32, nil), (.int64, nil), (.int32, .integer?), (.int64, .integer?):
            break
        case (.int32, let a?), (.int64, let a?):
            unknown("\(a)")
        case (.float, _), (.double, _):
            p.read = .floats; p.output = .double
        case (.byteArray, .string?), (.byteArray, .enumeration?), (.byteArray, .json?):
            p.read = .text(.utf8); p.output = .text
        case (.byteArray, nil):
            p.read = .text(.bytes); p.output = .text
        case (.fixedLenByteArray, .uuid?) where e.typeLength == 16:
            p.read = .text(.uuid); p.output = .text
        case (.fixedLenByteArray, .float16?) where e.typeLength == 2:
            p.read = .float16; p.output = .double
        case (.fixedLenByteArray, .interval?) where e.typeLength == 12:
            p.read = .interval; p.output = .duration(clock: false)
        case (.byteArray, .bson?), (.fixedLenByteArray, nil):
            p.read = .text(.hex); p.output = .text
        case (.byteArray, let a?), (.fixedLenByteArray, let a?):
            p.read = .text(.hex); p.output = .text
            note = "\(e.name) is annotated \(a), which utq does not know; its bytes are shown in hexadecimal"
        }
        return (p, note)
    }
}
