import Foundation

/// Angles and trigonometry: directions of movement are angles in degrees, and their mean is
/// taken on the circle (see `circmean`), for which sin, cos and atan2 are the tools.
enum AngleFunctions {
    static let all: [FunctionSpec] = [
        MathFunctions.unaryDouble("sin", "The sine of an angle in radians.",
                                  examples: ["where angle is not null | select angle, s = sin(radians(angle)) | limit 3"]) { Foundation.sin($0) }
            .inSQL(.trigonometric("sin")),
        MathFunctions.unaryDouble("cos", "The cosine of an angle in radians.",
                                  examples: ["where angle is not null | select angle, c = cos(radians(angle)) | limit 3"]) { Foundation.cos($0) }
            .inSQL(.trigonometric("cos")),
        MathFunctions.unaryDouble("tan", "The tangent of an angle in radians.",
                                  examples: ["select t = tan(pi() / 4) | limit 1"]) { Foundation.tan($0) }
            .inSQL(.trigonometric("tan")),
        MathFunctions.unaryDouble("asin", "The angle in radians whose sine is x (-1 to 1).",
                                  examples: ["select a = degrees(asin(0.5)) | limit 1"]) { $0 >= -1 && $0 <= 1 ? Foundation.asin($0) : nil }
            .inSQL(.numeric("asin({0})", where: "{0} >= -1 AND {0} <= 1")),
        MathFunctions.unaryDouble("acos", "The angle in radians whose cosine is x (-1 to 1).",
                                  examples: ["select a = degrees(acos(0.5)) | limit 1"]) { $0 >= -1 && $0 <= 1 ? Foundation.acos($0) : nil }
            .inSQL(.numeric("acos({0})", where: "{0} >= -1 AND {0} <= 1")),
        MathFunctions.unaryDouble("atan", "The angle in radians whose tangent is x.",
                                  examples: ["select a = degrees(atan(1)) | limit 1"]) { Foundation.atan($0) }
            .inSQL(.numeric("atan({0})")),
        MathFunctions.unaryDouble("degrees", "Radians in degrees.",
                                  examples: ["select d = degrees(atan2(1, 1)) | limit 1"]) { $0 * 180 / .pi }
            .inSQL(.numeric("({0} * 180 / pi())")),
        MathFunctions.unaryDouble("radians", "Degrees in radians.",
                                  examples: ["where angle is not null | select angle, r = radians(angle) | limit 3"]) { $0 * .pi / 180 }
            .inSQL(.numeric("({0} * pi() / 180)")),
        FunctionSpec(name: "atan2", aliases: [], usage: "atan2(y, x)",
                     summary: "The angle in radians from the x axis to the point (x, y), from -pi to pi.",
                     examples: ["select d = degrees(atan2(1, 1)) | limit 1"], arity: 2...2,
                     resultType: { t in numericArgs("atan2", t).map { .failure($0) } ?? .success(.double) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard let y = v[0].doubleValue, let x = v[1].doubleValue else { return .null }
                             return .double(Foundation.atan2(y, x))
                         }
                     })
            .inSQL(.build { c in "atan2(\(c.number(0)), \(c.number(1)))" }),
        FunctionSpec(name: "pi", aliases: [], usage: "pi()", summary: "The number pi, 3.14159….",
                     examples: ["select full = 2 * pi() | limit 1"], arity: 0...0,
                     resultType: { _ in .success(.double) },
                     evaluate: { _, _, _, _ in .constant(.double(.pi), .double) })
            .inSQL(.template("pi()")),
    ]
}

/// Text into values: parts of a text, the part a pattern matches, and times written in a
/// format of their own.
enum ParsingFunctions {
    static let all: [FunctionSpec] = [
        FunctionSpec(name: "split", aliases: ["split_part"], usage: "split(text, separator, n)",
                     summary: "The nth part of the text between separators (1 is the first, -1 the last); null past the end.",
                     examples: ["select p = split(\"69.648,19.0008\", \",\", 2) | limit 1", "let first = split(legend, \" \", 1) | count by first"],
                     arity: 3...3,
                     resultType: { t in
                         if let e = TextFunctions.stringArg("split", t, 0) ?? TextFunctions.stringArg("split", t, 1) { return .failure(e) }
                         return numericArgs("split", [t[2]]).map { .failure($0) } ?? .success(.string)
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard case .string(let s) = v[0], case .string(let sep) = v[1], !sep.isEmpty,
                                   let k = v[2].doubleValue, k.isFinite, k != 0, k.magnitude < 1e9 else { return .null }
                             let parts = s.components(separatedBy: sep)
                             let i = k > 0 ? Int(k) - 1 : parts.count + Int(k)
                             return parts.indices.contains(i) ? .string(parts[i]) : .null
                         }
                     })
            .inSQL(.none("utq splits text as it compares it (é written as e and a mark is one letter), and a part past the end is null, not empty")),
        FunctionSpec(name: "extract", aliases: ["regexp_extract"], usage: "extract(text, pattern [, group])",
                     summary: "The part of the text a regular expression matches first (or its group n); null when it does not match.",
                     examples: ["select km = number(extract(\"4.1 km\", \"[0-9.]+\")) | limit 1",
                                "select h = extract(\"08:20\", \"([0-9]+):([0-9]+)\", 1) | limit 1"],
                     arity: 2...3,
                     resultType: { t in
                         if let e = TextFunctions.stringArg("extract", t, 0) ?? TextFunctions.stringArg("extract", t, 1) { return .failure(e) }
                         if t.count == 3, let e = numericArgs("extract", [t[2]]) { return .failure(e) }
                         return .success(.string)
                     },
                     evaluate: { args, type, n, context in
                         // The pattern is compiled once when it is the same for every row.
                         var fixed: TextPattern? = nil
                         if case .constant(.string(let p), _) = args[1] { fixed = try TextPattern(p, ignoringCase: false) }
                         return try rowwise(args, n, type, context) { v in
                             guard case .string(let s) = v[0], case .string(let p) = v[1] else { return .null }
                             var group = 0
                             if v.count == 3 {
                                 guard let g = v[2].doubleValue, g >= 0, g < 1000 else { return .null }
                                 group = Int(g)
                             }
                             let pattern = try fixed ?? TextPattern(p, ignoringCase: false)
                             guard let groups = try pattern.firstMatch(in: s, cancel: context.cancel), group < groups.count,
                                   let range = groups[group] else { return .null }
                             return .string(String(s[range]))
                         }
                     })
            .inSQL(.none("utq's regular expressions are ICU's, not PostgreSQL's")),
        FunctionSpec(name: "parse_time", aliases: ["strptime"], usage: "parse_time(text, format)",
                     summary: "A time read from text in a format (%Y %m %d %H %M %S %y %b %p %I %j %%), in the table's time zone; null, with a warning, where it does not fit.",
                     examples: ["select t = parse_time(\"201808020820\", \"%Y%m%d%H%M\") | limit 1",
                                "select t = parse_time(\"2 Aug 2018 8:20 pm\", \"%d %b %Y %I:%M %p\") | limit 1"],
                     arity: 2...2,
                     resultType: { t in
                         (TextFunctions.stringArg("parse_time", t, 0) ?? TextFunctions.stringArg("parse_time", t, 1)).map { .failure($0) } ?? .success(.timestamp)
                     },
                     evaluate: { args, type, n, context in
                         var fixed: TimeFormat? = nil
                         if case .constant(.string(let f), _) = args[1] { fixed = try TimeFormat(f) }
                         return try rowwise(args, n, type, context) { v in
                             // Empty text is no time, and nothing to warn about.
                             guard case .string(let s) = v[0], !s.trimmingCharacters(in: .whitespaces).isEmpty,
                                   case .string(let f) = v[1] else { return .null }
                             let format = try fixed ?? TimeFormat(f)
                             guard let wall = format.parse(s) else {
                                 context.notes?.add("parse_time \(f)", "parse_time: \"\(s)\" does not fit \(f); such values are null")
                                 return .null
                             }
                             return .timestamp(context.zone.instant(wallMicros: wall))
                         }
                     })
            .inSQL(.none("utq reads times in its own formats and warns of those that do not fit")),
    ]
}

/// A strftime-style format, for reading times: %Y %m %d %H %M %S %y %b %B %p %I %j and %%;
/// any other character stands for itself.
struct TimeFormat {
    enum Part { case literal(Character), field(Character) }
    let parts: [Part]

    init(_ text: String) throws {
        var parts: [Part] = []
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if c == "%" {
                guard let f = chars.popFirst() else { throw Diagnostic("the format \"\(text)\" ends with %") }
                guard "YmdHMSybBpIj%".contains(f) else {
                    throw Diagnostic("%\(f) is not a field parse_time knows", hint: "fields: %Y %m %d %H %M %S %y %b %B %p %I %j %%")
                }
                parts.append(f == "%" ? .literal("%") : .field(f))
            } else {
                parts.append(.literal(c))
            }
        }
        self.parts = parts
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The wall-clock time the text writes, or nil when it does not fit the format.
    func parse(_ text: String) -> Int64? {
        var s = Array(text)[...]
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, dayOfYear: Int? = nil
        var pm: Bool? = nil
        func number(_ most: Int) -> Int? {
            var v = 0, digits = 0
            while digits < most, let c = s.first, let d = c.wholeNumberValue, c.isASCII { v = v * 10 + d; s.removeFirst(); digits += 1 }
            return digits > 0 ? v : nil
        }
        for part in parts {
            switch part {
            case .literal(let c):
                // A space in the format takes any run of spaces in the text.
                if c == " " { guard s.first == " " else { return nil }; while s.first == " " { s.removeFirst() }; continue }
                guard s.first == c else { return nil }
                s.removeFirst()
            case .field(let f):
                switch f {
                // Years 1 to 9999, as every time of utq (there is no year 0).
                case "Y": guard let v = number(4), v >= 1 else { return nil }; year = v
                case "y": guard let v = number(2) else { return nil }; year = v < 69 ? 2000 + v : 1900 + v
                case "m": guard let v = number(2), (1...12).contains(v) else { return nil }; month = v
                case "d": guard let v = number(2), (1...31).contains(v) else { return nil }; day = v
                case "H": guard let v = number(2), v < 24 else { return nil }; hour = v
                case "I": guard let v = number(2), (1...12).contains(v) else { return nil }; hour = v
                case "M": guard let v = number(2), v < 60 else { return nil }; minute = v
                case "S": guard let v = number(2), v < 61 else { return nil }; second = min(v, 59)
                case "j": guard let v = number(3), (1...366).contains(v) else { return nil }; dayOfYear = v
                case "p":
                    let word = String(s.prefix(2)).lowercased()
                    guard word == "am" || word == "pm" else { return nil }
                    s.removeFirst(2)
                    pm = word == "pm"
                default: // b, B: a month's name, by its first three letters
                    let letters = String(s.prefix { $0.isLetter })
                    guard letters.count >= 3, let i = Self.months.firstIndex(of: String(letters.prefix(3)).lowercased()) else { return nil }
                    s.removeFirst(letters.count)
                    month = i + 1
                }
            }
        }
        guard s.isEmpty, day <= CivilTime.daysInMonth(year: year, month: month) else { return nil }
        if let pm { hour = hour % 12 + (pm ? 12 : 0) }
        var days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        if let dayOfYear {
            // Day 366 is only in leap years.
            let length = CivilTime.daysInMonth(year: year, month: 2) == 29 ? 366 : 365
            guard dayOfYear <= length else { return nil }
            days = CivilTime.daysFromCivil(year: year, month: 1, day: 1) + Int64(dayOfYear - 1)
        }
        return days * CivilTime.microsPerDay + Int64(hour) * CivilTime.microsPerHour + Int64(minute) * CivilTime.microsPerMinute
            + Int64(second) * CivilTime.microsPerSecond
    }
}
