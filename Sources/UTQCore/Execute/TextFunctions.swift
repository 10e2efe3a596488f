import Foundation

/// Functions on text. Those of one argument are computed once per distinct value.
enum TextFunctions {
    /// A text → text function applied to each dictionary entry, keeping the codes.
    static func mapDictionary(_ name: String, usage: String, summary: String, examples: [String] = [],
                              _ f: @escaping @Sendable (String) -> String) -> FunctionSpec {
        FunctionSpec(name: name, aliases: [], usage: usage, summary: summary, examples: examples, arity: 1...1,
                     resultType: { t in
                         t[0] == .string || t[0] == .null ? .success(.string) : .failure(FunctionTypeError(message: "\(name) needs text, not \(t[0].displayName)"))
                     },
                     evaluate: { args, _, n, _ in
                         switch args[0] {
                         case .constant(let v, _):
                             if case .string(let s) = v { return .constant(.string(f(s)), .string) }
                             return .constant(.null, .string)
                         case .column(let c):
                             guard case .string(let s) = c.storage else { return .constant(.null, .string) }
                             // Mapping can merge values ("Bike", "bike"): re-intern.
                             var interner = ByteInterner()
                             let remap = s.dictionary.map { interner.intern(f($0)) }
                             let dictionary = interner.strings()
                             let codes = s.codes.mapped(values: dictionary.count) { remap[Int($0)] }
                             return .column(Column(name: "", storage: .string(StringStorage(codes: codes, dictionary: dictionary)), validity: c.validity))
                         }
                     })
    }

    static func stringArg(_ name: String, _ t: [DataType], _ k: Int = 0) -> FunctionTypeError? {
        t[k] == .string || t[k] == .null ? nil : FunctionTypeError(message: "\(name) needs text, not \(t[k].displayName)")
    }

    /// Why counting characters stays in memory.
    static let lettersNotCodePoints = "utq counts letters as they are seen (é written as e and a mark is one); PostgreSQL counts code points"

    static let all: [FunctionSpec] = [
        mapDictionary("lower", usage: "lower(text)", summary: "The text in small letters.",
                      examples: ["count by lower(legend)"]) { $0.lowercased() }
            .inSQL(.none("PostgreSQL's lower differs from utq's on some letters and in a C locale")),
        mapDictionary("upper", usage: "upper(text)", summary: "The text in capital letters.",
                      examples: ["count by upper(legend)"]) { $0.uppercased() }
            .inSQL(.none("PostgreSQL's upper differs on ß (STRASSE in utq) and in a C locale")),
        mapDictionary("trim", usage: "trim(text)", summary: "The text without spaces at either end.",
                      examples: ["count by trim(note)"]) { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .inSQL(.none("utq trims every kind of space and line break; PostgreSQL's trim only spaces")),
        FunctionSpec(name: "len", aliases: ["length", "st_length"], usage: "len(text) · length(line)",
                     summary: "The number of characters; of a line, its length (geodesic metres in lng/lat, the plan's units on a plan; a polygon's perimeter).",
                     examples: ["where len(note) > 0 | select time, legend, note",
                                "select metres = round(length(geometry(\"LINESTRING (21.1660 42.6495, 21.0817 42.6343)\"))) | limit 1"], arity: 1...1,
                     resultType: { t in
                         if t[0] == .geometry { return .success(.double) }
                         return stringArg("len", t).map { .failure(FunctionTypeError(message: $0.message + " (of a line, length(line) gives its length)")) } ?? .success(.int)
                     },
                     evaluate: { args, type, n, context in
                         if args[0].type == .geometry { return try GeometryMeasures.length(args, n, context) }
                         if case .column(let c) = args[0], case .string(let s) = c.storage {
                             let lengths = s.dictionary.map { Int64($0.count) }
                             return .column(Column(name: "", storage: .int(s.codes.through(lengths)), validity: c.validity))
                         }
                         return try rowwise(args, n, type, context) { v in if case .string(let s) = v[0] { return .int(Int64(s.count)) }; return .null }
                     })
            .inSQL(.build({ c in
                guard c.types[0] == .geometry else { return nil }
                return GeometrySQL.length(c)
            }, otherwise: { _ in Self.lettersNotCodePoints },
               only: "of a geometry; of text no: \(Self.lettersNotCodePoints)")),
        FunctionSpec(name: "substr", aliases: ["substring"], usage: "substr(text, start [, length])",
                     summary: "Part of the text, counting characters from 1.",
                     examples: ["count by substr(legend, 1, 3)"], arity: 2...3,
                     resultType: { t in
                         if let e = stringArg("substr", t) { return .failure(e) }
                         return numericArgs("substr", Array(t.dropFirst())).map { .failure($0) } ?? .success(.string)
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard case .string(let s) = v[0], let start = v[1].doubleValue else { return .null }
                             let chars = Array(s)
                             // Positions past the text are the text's end, whatever their size.
                             guard start.isFinite else { return .null }
                             let from = Int(max(0, min(Double(chars.count), start.rounded(.towardZero) - 1)))
                             guard from < chars.count else { return .string("") }
                             var length = chars.count - from
                             if v.count == 3 {
                                 guard let l = v[2].doubleValue, l.isFinite else { return .null }
                                 length = Int(max(0, min(Double(length), l.rounded(.towardZero))))
                             }
                             return .string(String(chars[from..<(from + length)]))
                         }
                     })
            .inSQL(.none(lettersNotCodePoints)),
        FunctionSpec(name: "replace", aliases: [], usage: "replace(text, find, with)",
                     summary: "The text with every find replaced.",
                     examples: ["count by replace(legend, \" \", \"_\")"], arity: 3...3,
                     resultType: { t in
                         for k in 0..<3 { if let e = stringArg("replace", t, k) { return .failure(e) } }
                         return .success(.string)
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard case .string(let s) = v[0], case .string(let a) = v[1], case .string(let b) = v[2] else { return .null }
                             return .string(a.isEmpty ? s : s.replacingOccurrences(of: a, with: b))
                         }
                     })
            .inSQL(.none("utq finds text as it compares it (é written two ways is one); PostgreSQL finds bytes")),
        FunctionSpec(name: "concat", aliases: [], usage: "concat(a, b, …)",
                     summary: "The values joined as text (nulls are left out).",
                     examples: ["select label = concat(legend, \" #\", tag) | limit 3"], arity: 1...32,
                     resultType: { _ in .success(.string) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in .string(v.map { $0.isNull ? "" : $0.plainText }.joined()) }
                     })
            .inSQL(.build { c in
                // Text joins the same in both; other values are written differently.
                c.types.allSatisfy { $0 == .string || $0 == .null } ? "concat(\(c.arguments.joined(separator: ", ")))" : nil
            }),
    ]
}

/// Conditionals, conversions and durations.
enum OtherFunctions {
    static let all: [FunctionSpec] = [
        FunctionSpec(name: "coalesce", aliases: ["ifnull"], usage: "coalesce(a, b, …)",
                     summary: "The first value that is not null.", examples: ["let a = coalesce(angle, 0) | avg a"], arity: 1...32,
                     resultType: { t in
                         commonType(t).map { .success($0) } ?? .failure(FunctionTypeError(message: "coalesce needs values of one type, got " + t.map(\.displayName).joined(separator: ", ")))
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard let first = v.first(where: { !$0.isNull }) else { return .null }
                             if type == .double, case .int(let x) = first { return .double(Double(x)) }
                             return first
                         }
                     })
            .inSQL(.template("coalesce({*})")),
        FunctionSpec(name: "if", aliases: ["iif"], usage: "if(condition, then, else)",
                     summary: "One value where the condition holds and another where it does not.",
                     examples: ["let moving = if(angle is null, \"still\", \"moving\") | count by moving"], arity: 3...3,
                     resultType: { t in
                         guard t[0] == .bool || t[0] == .null else { return .failure(FunctionTypeError(message: "the first argument of if must be a condition")) }
                         return commonType([t[1], t[2]]).map { .success($0) } ?? .failure(FunctionTypeError(message: "the two results of if must have one type, got \(t[1].displayName) and \(t[2].displayName)"))
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             let chosen = (v[0] == .bool(true)) ? v[1] : v[2]
                             if type == .double, case .int(let x) = chosen { return .double(Double(x)) }
                             return chosen
                         }
                     })
            .inSQL(.template("(CASE WHEN {0} THEN {1} ELSE {2} END)")),
        FunctionSpec(name: "text", aliases: ["string", "str"], usage: "text(x)", summary: "The value written as text.",
                     examples: ["count by text(icon)"], arity: 1...1,
                     resultType: { _ in .success(.string) },
                     evaluate: { args, type, n, context in try rowwise(args, n, type, context) { v in v[0].isNull ? .null : .string(v[0].plainText) } })
            .inSQL(.build { c in
                // Whole numbers are written alike; numbers, times and booleans are not.
                switch c.types[0] {
                case .string, .null: return c.arguments[0]
                case .int: return "(\(c.arguments[0]))::text"
                default: return nil
                }
            }),
        FunctionSpec(name: "number", aliases: ["float", "double"], usage: "number(x)",
                     summary: "The value as a number (null when it is not one). Text may have leading zeros (0820), a sign, and thousands separators: 1,234.5, 1.234,5, 1 234,5; a lone comma before other than three digits is a decimal comma (3,25).",
                     examples: ["select n = number(\"4.5\") * 2 | limit 1"], arity: 1...1,
                     resultType: { _ in .success(.double) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             switch v[0] {
                             case .string(let s): return NumberParser.readingWritten(s).map { .double($0) } ?? .null
                             case .bool(let b): return .double(b ? 1 : 0)
                             default: return v[0].doubleValue.map { .double($0) } ?? .null
                             }
                         }
                     })
            .inSQL(.build { c in
                // Text is read by utq's own rules.
                switch c.types[0] {
                case .int, .double: return c.number(0)
                case .bool: return "(\(c.arguments[0]))::int::float8"
                default: return nil
                }
            }),
        FunctionSpec(name: "int", aliases: ["integer"], usage: "int(x)", summary: "The value as a whole number, cut toward zero; text is read as number(x) reads it (int(\"08\") is 8).",
                     examples: ["select x, whole = int(x) | limit 3"], arity: 1...1,
                     resultType: { _ in .success(.int) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             switch v[0] {
                             case .string(let s):
                                 let t = s.trimmingCharacters(in: .whitespaces)
                                 if let i = NumberParser.readingWhole(t) { return .int(i) }
                                 if let d = NumberParser.readingWritten(t), d.isFinite, Swift.abs(d) < 9e18 { return .int(Int64(d)) }
                                 return .null
                             case .bool(let b): return .int(b ? 1 : 0)
                             default:
                                 guard let d = v[0].doubleValue, d.isFinite, Swift.abs(d) < 9e18 else { return .null }
                                 return .int(Int64(d))
                             }
                         }
                     })
            .inSQL(.build { c in
                switch c.types[0] {
                case .int: return c.arguments[0]
                case .bool: return "(\(c.arguments[0]))::int::int8"
                case .double: return "(CASE WHEN abs(\(c.arguments[0])) < 9e18 THEN trunc(\(c.arguments[0]))::int8 END)"
                default: return nil
                }
            }),
        FunctionSpec(name: "clock_time", aliases: ["parse_clock"], usage: "clock_time(text)",
                     summary: "A clock time written as text (0820, 820, 8:20, 08:20:00, 8:20 PM) as the time since midnight; timeofday(text) is the same.",
                     examples: ["select t = clock_time(\"8:20 PM\"), h = hour(timeofday(\"0820\")) | limit 1"], arity: 1...1,
                     resultType: { t in
                         t[0] == .string || t[0] == .null || t[0] == .int ? .success(.duration)
                             : .failure(FunctionTypeError(message: "clock_time reads text such as \"0820\" or \"8:20 PM\", but this is \(t[0].displayName)"))
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             switch v[0] {
                             case .string(let s): return ClockText.parse(s).map { .duration($0) } ?? .null
                             // 820 read as a number from a column of clock times.
                             case .int(let i) where i >= 0 && i < 10000: return ClockText.parse(String(format: "%04d", Int(i))).map { .duration($0) } ?? .null
                             default: return .null
                             }
                         }
                     })
            // 0820, 8:20 PM and 12:05am are read by utq's own rules, which no SQL cast has.
            .inSQL(.none("clock text is read by utq's own rules (0820, 8:20 PM)")),
        durationUnit("seconds", 1_000_000),
        durationUnit("minutes", 60_000_000),
        durationUnit("hours", 3_600_000_000),
        durationUnit("days", 86_400_000_000),
    ]

    static let durationExamples: [String: [String]] = [
        "seconds": ["select time, into_the_minute = seconds(time - bucket(time, 1m)) | limit 3"],
        "minutes": ["select time, past_the_hour = minutes(time - bucket(time, 1h)) | limit 3", "select time, later = time + minutes(90) | limit 2"],
        "hours": ["select time, of_the_day = hours(time - day(time)) | limit 3"],
        "days": ["select time, a_week_later = time + days(7) | limit 2"],
    ]

    /// minutes(d) is a duration in minutes (a number); minutes(45) is a duration of 45 minutes.
    static func durationUnit(_ name: String, _ micros: Int64) -> FunctionSpec {
        // hour(t), minute(t), day(t) are buckets; second(d) is the only singular left.
        FunctionSpec(name: name, aliases: TimeBucket.named(String(name.dropLast())) == nil ? [String(name.dropLast())] : [], usage: "\(name)(x)",
                     summary: "A duration as a number of \(name), or a number of \(name) as a duration.",
                     examples: durationExamples[name] ?? [], arity: 1...1,
                     resultType: { t in
                         switch t[0] {
                         case .duration: return .success(.double)
                         case .int, .double, .null: return .success(.duration)
                         default: return .failure(FunctionTypeError(message: "\(name) needs a duration or a number, not \(t[0].displayName)"))
                         }
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             switch v[0] {
                             case .duration(let d): return .double(Double(d) / Double(micros))
                             case .int(let x):
                                 guard let d = Checked.multiply(x, micros) else { throw ValueOutOfRange(kind: .duration, row: 0) }
                                 return .duration(d)
                             case .double(let x):
                                 guard x.isFinite else { return .null }
                                 guard let d = Checked.int64((x * Double(micros)).rounded()) else { throw ValueOutOfRange(kind: .duration, row: 0) }
                                 return .duration(d)
                             default: return .null
                             }
                         }
                     })
            .inSQL(.build { c in
                // Durations are microseconds in SQL.
                switch c.types[0] {
                case .duration: return "(\(c.arguments[0])::float8 / \(micros))"
                case .int: return "(\(c.arguments[0])::int8 * \(micros))"
                case .double:
                    let x = "(\(c.arguments[0]) * \(micros))"
                    return "(CASE WHEN \(c.arguments[0]) > '-Infinity'::float8 AND \(c.arguments[0]) < 'Infinity'::float8 THEN \(SQLForm.roundedHalfAway(x))::int8 END)"
                default: return nil
                }
            })
    }
}
