/// Resolves names in expressions against a schema and checks types, inserting the
/// conversions a user would expect (a quoted time compared with a timestamp is read as a time).
struct ExprBinder {
    let schema: Schema
    /// In `let`, where functions that look at other rows (prev, sum over the group …) are
    /// allowed: they are collected here and become columns of a window node.
    var windows: WindowCollector? = nil

    func bind(_ e: Expr) throws -> BoundExpr {
        switch e {
        case .column(let name, let span):
            return try resolve(name, span)
        case .literal(let v, _):
            return .literal(v, v.type)
        case .unary(let op, let inner, let span):
            let b = try bind(inner)
            switch op {
            case .not:
                guard b.type == .bool || b.type == .null else {
                    throw Diagnostic("not needs a condition, but \(describe(inner)) is \(b.type.displayName)", at: span)
                }
                return .unary(.not, b, .bool)
            case .negate:
                guard b.type.isNumeric || b.type == .duration || b.type == .null else {
                    throw Diagnostic("only numbers and durations can be negated, not \(b.type.displayName)", at: span)
                }
                return .unary(.negate, b, b.type)
            }
        case .binary(let op, let l, let r, let span):
            return try binary(op, l, r, span)
        case .call(let name, let args, let span):
            return try call(name, args, span)
        case .inList(let inner, let items, let negated, let span):
            let b = try bind(inner)
            var values: [Value] = []
            for item in items {
                let bi = try bind(item, beside: b)
                guard case .literal(let v, _) = Self.dayName(try coerce(bi, to: b.type, other: inner, item.span), beside: b) else {
                    throw Diagnostic("the list after in must hold values, not columns", at: item.span)
                }
                values.append(v)
            }
            _ = span
            return .inList(b, values, negated: negated)
        case .isNull(let inner, let negated, _):
            return .isNull(try bind(inner), negated: negated)
        case .between(let x, let lo, let hi, let negated, let span):
            let ge = Expr.binary(.greaterEqual, x, lo, span)
            let le = Expr.binary(.lessEqual, x, hi, span)
            let both = try bind(.binary(.and, ge, le, span))
            return negated ? .unary(.not, both, .bool) : both
        }
    }

    /// A name: a column, or a time bucket of the time column (`hour`, `weekday`, …).
    func resolve(_ name: String, _ span: SourceSpan) throws -> BoundExpr {
        if let i = schema.index(of: name) { return .column(i, schema.fields[i]) }
        if let bucket = TimeBucket.named(name) {
            return .bucket(bucket, try timeColumn(for: name, span), schema.zone)
        }
        throw unknownColumn(name, span)
    }

    /// Binds the other side of a comparison with `side`. A bare word beside text
    /// (`legend = Bike`) is most likely text without its quotes, so the message says that
    /// rather than guess at a column with a similar name.
    func bind(_ e: Expr, beside side: BoundExpr) throws -> BoundExpr {
        guard case .column(let name, let span) = e, side.type == .string,
              schema.index(of: name) == nil, TimeBucket.named(name) == nil else { return try bind(e) }
        throw Diagnostic("unknown column \"\(name)\"", at: span,
                         hint: "to compare with the text \(name), put it in quotes: \"\(name)\"")
    }

    func unknownColumn(_ name: String, _ span: SourceSpan) -> Diagnostic {
        Diagnostic(.unknownColumn(name, suggestion: Suggest.closest(name, among: schema.names), columns: schema.names), at: span)
    }

    /// The column time buckets read when none is named.
    func timeColumn(for bucket: String, _ span: SourceSpan) throws -> BoundExpr {
        guard let name = schema.timeColumn, let i = schema.index(of: name) else {
            let durations = schema.fields.filter { $0.type == .timestamp || $0.type == .duration }.map(\.name)
            throw Diagnostic("\(bucket) needs a time column, and this table has none", at: span,
                             hint: durations.isEmpty ? "load a file with dates and times, or name a column: \(bucket)(COLUMN)"
                                                     : "name one: \(bucket)(\(durations[0])), or set time \(durations[0])")
        }
        return .column(i, schema.fields[i])
    }

    func describe(_ e: Expr) -> String {
        switch e {
        case .column(let n, _): return n
        case .literal(.string(let s), _): return "\"\(s)\""
        case .literal(let v, _): return v.plainText
        case .call(let f, _, _): return "\(f)(…)"
        default: return "this"
        }
    }

    // MARK: operators

    /// `weekday = "Saturday"`: weekdays are written Mon … Sun, and a day's full name (or its
    /// first letters, in any case) means the same day, rather than matching nothing.
    static func dayName(_ e: BoundExpr, beside other: BoundExpr) -> BoundExpr {
        guard case .bucket(.weekday, _, _) = other, case .literal(.string(let s), let type) = e else { return e }
        let said = s.trimmingCharacters(in: .whitespaces).lowercased()
        let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        guard said.count >= 2, let day = full.firstIndex(where: { $0.hasPrefix(said) }) else { return e }
        return .literal(.string(CivilTime.weekdayNames[day]), type)
    }

    /// `month = "March"`: a month's name (or its first three letters or more) beside the
    /// month bucket means that month of any year, so both sides become the month of the year.
    static func monthName(_ a: BoundExpr, _ b: BoundExpr) -> (BoundExpr, BoundExpr)? {
        func name(_ e: BoundExpr) -> (String, DataType)? {
            guard case .literal(.string(let s), let type) = e else { return nil }
            let said = s.trimmingCharacters(in: .whitespaces).lowercased()
            let full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
            guard said.count >= 3, let m = full.firstIndex(where: { $0.hasPrefix(said) }) else { return nil }
            return (CivilTime.monthNames[m], type)
        }
        func ofYear(_ e: BoundExpr) -> BoundExpr? {
            guard case .bucket(.month, let inner, let zone) = e, inner.type == .timestamp else { return nil }
            return .bucket(.monthOfYear, inner, zone)
        }
        if let bucket = ofYear(a), let (n, t) = name(b) { return (bucket, .literal(.string(n), t)) }
        if let bucket = ofYear(b), let (n, t) = name(a) { return (.literal(.string(n), t), bucket) }
        if case .bucket(.monthOfYear, _, _) = a, let (n, t) = name(b) { return (a, .literal(.string(n), t)) }
        if case .bucket(.monthOfYear, _, _) = b, let (n, t) = name(a) { return (.literal(.string(n), t), b) }
        return nil
    }

    func binary(_ op: BinaryOp, _ l: Expr, _ r: Expr, _ span: SourceSpan) throws -> BoundExpr {
        var a = try bind(l)
        var b = op.isArithmetic || op == .and || op == .or ? try bind(r) : try bind(r, beside: a)
        if op == .equal || op == .notEqual, let (x, y) = Self.monthName(a, b) {
            return .binary(op, x, y, .bool)
        }
        switch op {
        case .and, .or:
            for (x, e) in [(a, l), (b, r)] where x.type != .bool && x.type != .null {
                throw Diagnostic("\(op.rawValue) joins conditions, but \(describe(e)) is \(x.type.displayName)", at: e.span,
                                 hint: "write a comparison, as in: legend = \"Bike\" \(op.rawValue) hour > 12")
            }
            return .binary(op, a, b, .bool)
        case .contains, .startsWith, .endsWith, .matches:
            guard a.type == .string || a.type == .null else {
                throw Diagnostic("\(op.rawValue) works on text, but \(describe(l)) is \(a.type.displayName)", at: l.span)
            }
            guard b.type == .string || b.type == .null else {
                throw Diagnostic("\(op.rawValue) needs text to look for, in quotes", at: r.span)
            }
            if op == .matches, case .literal(.string(let pattern), let at) = r { try checkPattern(pattern, at) }
            return .binary(op, a, b, .bool)
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
            if case .literal(.null, _) = b {
                throw Diagnostic("nothing equals null", at: span, hint: "write \(describe(l)) is null or \(describe(l)) is not null")
            }
            b = try coerce(b, to: a.type, unit: a.unit, other: l, r.span)
            a = try coerce(a, to: b.type, unit: b.unit, other: r, l.span)
            try checkComparable(a, b, l, r, span)
            return .binary(op, Self.dayName(a, beside: b), Self.dayName(b, beside: a), .bool)
        case .add, .subtract, .multiply, .divide, .modulo:
            return try arithmetic(op, a, b, l, r, span)
        }
    }

    /// Literal text compared with a time, a duration or a number is read as one.
    func coerce(_ e: BoundExpr, to target: DataType, unit: DisplayUnit = .automatic, other: Expr, _ span: SourceSpan) throws -> BoundExpr {
        guard case .literal(let v, _) = e else { return e }
        switch (v, target) {
        case (.string(let s), .timestamp):
            // A month or week is compared as it is shown: "2017-10", "2017-W43".
            if let start = BucketText.start(s, unit: unit, zone: schema.zone) { return .literal(.timestamp(start), .timestamp) }
            guard let p = TimestampParser.parse(s, order: .dayFirst) else {
                // A clock time alone ("12:00") is a time of day: say how to compare one.
                if let d = DurationParser.parse(s), d.style == .clock {
                    let column = describe(other)
                    let call = column == schema.timeColumn || column == "this" ? "timeofday" : "timeofday(\(column))"
                    throw Diagnostic("\"\(s)\" is a time of day, and \(column) holds dates and times", at: span,
                                     hint: "to compare the time of day, write: \(call) > \"\(s)\"")
                }
                throw Diagnostic("\"\(s)\" is not a time I can read", at: span,
                                 hint: "write it as 2017-03-23 12:00 or 23.03.2017 12:00")
            }
            return .literal(.timestamp(p.instant(in: schema.zone)), .timestamp)
        case (.string(let s), .duration):
            guard let d = DurationParser.parse(s) else {
                throw Diagnostic("\"\(s)\" is not a duration I can read", at: span, hint: "write it as 15m, 1h or \"1 hour 5 mins\"")
            }
            return .literal(.duration(d.micros), .duration)
        case (.int(let x), .double):
            return .literal(.double(Double(x)), .double)
        case (.int, .duration), (.double, .duration):
            throw Diagnostic("\(describe(other)) is a duration; write the number with a unit", at: span, hint: "for example 10m, 90s or 2h")
        default:
            return e
        }
    }

    func checkComparable(_ a: BoundExpr, _ b: BoundExpr, _ l: Expr, _ r: Expr, _ span: SourceSpan) throws {
        let x = a.type, y = b.type
        if x == y || x == .null || y == .null || (x.isNumeric && y.isNumeric) { return }
        var hint: String? = nil
        if x == .string && y.isNumeric { hint = "\(describe(l)) is text; put the value in quotes" }
        if x.isNumeric && y == .string { hint = "\(describe(l)) is a number; leave out the quotes" }
        throw Diagnostic("cannot compare \(describe(l)) (\(x.displayName)) with \(describe(r)) (\(y.displayName))", at: span, hint: hint)
    }

    func arithmetic(_ op: BinaryOp, _ a: BoundExpr, _ b: BoundExpr, _ l: Expr, _ r: Expr, _ span: SourceSpan) throws -> BoundExpr {
        let x = a.type, y = b.type
        let result: DataType?
        switch (x, y) {
        case (.null, _), (_, .null):
            result = x == .null ? (y == .null ? .double : y) : x
        case (.int, .int):
            result = op == .divide ? .double : .int
        case _ where x.isNumeric && y.isNumeric:
            result = .double
        case (.string, _), (_, .string):
            result = op == .add ? .string : nil
        case (.timestamp, .timestamp):
            result = op == .subtract ? .duration : nil
        case (.timestamp, .duration):
            result = op == .add || op == .subtract ? .timestamp : nil
        case (.duration, .timestamp):
            result = op == .add ? .timestamp : nil
        case (.duration, .duration):
            result = op == .divide ? .double : (op == .add || op == .subtract || op == .modulo ? .duration : nil)
        case (.duration, _) where y.isNumeric:
            result = op == .multiply || op == .divide ? .duration : nil
        case (_, .duration) where x.isNumeric:
            result = op == .multiply ? .duration : nil
        default:
            result = nil
        }
        guard let result else {
            var hint: String? = nil
            if x == .timestamp || y == .timestamp { hint = "times can be subtracted (giving a duration) or moved by a duration (time + 15m)" }
            throw Diagnostic("cannot compute \(op.rawValue) on \(describe(l)) (\(x.displayName)) and \(describe(r)) (\(y.displayName))", at: span, hint: hint)
        }
        if result == .double && (x == .int || y == .int) && op != .divide {
            return .binary(op, x == .int ? .cast(a, .double) : a, y == .int ? .cast(b, .double) : b, .double)
        }
        return .binary(op, a, b, result)
    }

    // MARK: calls

    func call(_ name: String, _ args: [Expr], _ span: SourceSpan) throws -> BoundExpr {
        if let bucket = TimeBucket.named(name) {
            guard args.count <= 1 else { throw Diagnostic("\(name) takes one time column, as in \(name)(dropped_off_at)", at: span) }
            let target = try args.first.map(bind) ?? timeColumn(for: name, span)
            // Clock times written as text (`0820`, `8:20 PM`): timeofday reads them, and the
            // other buckets of a day take them through it.
            if target.type == .string, let clock = Functions.spec("clock_time"),
               bucket == .timeOfDay || ([.hour, .minute].contains(bucket) && Self.namesClockText(target)) {
                let parsed = BoundExpr.call(clock, [target], .duration)
                return bucket == .timeOfDay ? parsed : .bucket(bucket, parsed, schema.zone)
            }
            try checkTimeArgument(target, name, args.first?.span ?? span)
            return .bucket(bucket, target, schema.zone)
        }
        if name == "bucket" {
            guard args.count == 2, case .literal(.duration(let step), _) = args[1], step > 0 else {
                throw Diagnostic("bucket takes a time column and a span, as in bucket(time, 15m)", at: span)
            }
            let target = try bind(args[0])
            try checkTimeArgument(target, name, args[0].span)
            return .bucket(.every(step), target, schema.zone)
        }
        if name == Expr.overName { return try rolling(args, span) }
        let lower = name.lowercased()
        let isRowFunction = WindowCall.rowFunctions.contains(lower)
        let summary = lower == "n" ? nil : AggregateFunction.named(lower)
        let isSummary = summary != nil && (Functions.spec(lower) == nil || args.count <= 1 || summary!.isPaired)
        if isRowFunction || isSummary {
            guard let windows else {
                if isRowFunction {
                    throw Diagnostic("\(lower) looks at the rows around each row; it belongs in let", at: span,
                                     hint: "for example: sort time | let gap = time - prev(time) by stop_id")
                }
                if summary?.isPaired == true {
                    throw Diagnostic("\(name) is a summary, used as a verb", at: span,
                                     hint: "write it as a stage: \(name)(a, b) by KEY; or in let, over each group: let r = \(name)(a, b) by KEY")
                }
                throw Diagnostic("\(name) is a summary, used as a verb", at: span,
                                 hint: "write it as a stage: \(name) COLUMN by KEY; or in let, over each group: let share = count / sum(count)")
            }
            return try window(lower, summary, args, span, into: windows)
        }
        guard let f = Functions.spec(name) else {
            throw Diagnostic(.unknownFunction(name, suggestion: Suggest.closest(name, among: Functions.names)), at: span)
        }
        guard f.arity.contains(args.count) else {
            throw Diagnostic("\(name) takes \(f.arity.lowerBound == f.arity.upperBound ? "\(f.arity.lowerBound)" : "\(f.arity.lowerBound) to \(f.arity.upperBound)") argument\(f.arity.upperBound == 1 ? "" : "s"), not \(args.count)",
                             at: span, usage: f.usage)
        }
        let bound = try args.map(bind)
        // A pattern or format written out is checked now, with the caret under it.
        if args.count >= 2, case .literal(.string(let pattern), let at) = args[1] {
            if f.name == "extract" { try checkPattern(pattern, at) }
            if f.name == "parse_time" {
                do { _ = try TimeFormat(pattern) } catch var d as Diagnostic { d.span = at; d.usage = f.usage; throw d }
            }
        }
        switch f.resultType(bound.map(\.type)) {
        case .success(let t):
            return .call(f, bound, t)
        case .failure(let e):
            throw Diagnostic(e.message, at: span, usage: f.usage)
        }
    }

    /// `avg(count) over 7 days`: a summary over a rolling window of the row's group.
    func rolling(_ args: [Expr], _ span: SourceSpan) throws -> BoundExpr {
        guard case .call(let fname, let fargs, let fspan) = args[0] else { throw Diagnostic("over follows a summary, as in avg(x) over 7 days", at: span) }
        let frameText = Expr.frameSyntax(args[1])
        guard let windows else {
            throw Diagnostic("over makes a rolling window, which belongs in let", at: span,
                             hint: "for example: count by day | let week = avg(count) over 7 days")
        }
        guard let f = AggregateFunction.named(fname), RollingFrame.functions.contains(f) else {
            throw Diagnostic("over takes a summary: count, sum, avg, min or max, not \(fname)", at: fspan,
                             hint: "for example: let week = avg(count) over 7 days")
        }
        let plain = ExprBinder(schema: schema)
        guard fargs.count <= 1 else { throw Diagnostic("\(fname) over a window takes one column, as in \(fname)(x) over \(frameText)", at: fspan) }
        let argument = try fargs.first.map(plain.bind)
        if f.needsArgument && argument == nil { throw Diagnostic("\(fname) needs a column, as in \(fname)(x) over \(frameText)", at: fspan) }
        if let a = argument, [.min, .max].contains(f), ![.int, .double, .duration, .timestamp].contains(a.type) {
            throw Diagnostic("\(fname) over a window takes numbers, durations or times, but this is \(a.type.displayName)", at: fspan)
        }
        let item = AggregateItem(function: f, argument: fargs.first, distinct: false, alias: nil, span: fspan)
        let type = try AggregateBinder(schema: schema).resultType(item, argument)
        let frame: RollingFrame
        switch args[1] {
        case .literal(.int(let n), _): frame = .rows(Int(n))
        case .literal(.duration(let d), let at):
            guard let time = schema.timeColumn, let i = schema.index(of: time), schema.fields[i].type == .timestamp else {
                throw Diagnostic("over \(frameText) reaches back in time, and these rows have no time column", at: at,
                                 hint: "count rows instead: over 7 rows; or keep a time in the summary: count by day")
            }
            frame = .time(span: d, column: i)
        default: throw Diagnostic("expected how far the window reaches after over", at: args[1].span)
        }
        var unit = DisplayUnit.automatic
        if let argument, type == argument.type, [.timestamp, .duration].contains(type) { unit = argument.unit }
        let written = fname + "(" + fargs.map(\.syntax).joined(separator: ", ") + ") over " + frameText
        return windows.column(for: WindowCall(kind: .rolling(f, frame), argument: argument, name: written, type: type, unit: unit))
    }

    /// A function of `let` over the row's group, as a column the window node computes.
    func window(_ name: String, _ summary: AggregateFunction?, _ args: [Expr], _ span: SourceSpan,
                into windows: WindowCollector) throws -> BoundExpr {
        // Their arguments are plain expressions: a window inside a window has no order to use.
        let plain = ExprBinder(schema: schema)
        let written = name + "(" + args.map(\.syntax).joined(separator: ", ") + ")"
        func one(_ what: String) throws -> BoundExpr {
            guard args.count == 1 else { throw Diagnostic("\(name) takes \(what), as in \(name)(x)", at: span) }
            return try plain.bind(args[0])
        }
        let call: WindowCall
        switch name {
        case "prev", "lag", "next", "lead":
            guard args.count == 1 || args.count == 2 else {
                throw Diagnostic("\(name) takes a column and, if not 1, how many rows away: \(name)(x) or \(name)(x, 2)", at: span)
            }
            let x = try plain.bind(args[0])
            var k = 1
            if args.count == 2 {
                guard case .literal(.int(let v), _) = args[1], v >= 0, v <= 1_000_000_000 else {
                    throw Diagnostic("how many rows away is a whole number from 0 up", at: args[1].span)
                }
                k = Int(v)
            }
            let before = name == "prev" || name == "lag"
            call = WindowCall(kind: before ? .prev(k) : .next(k), argument: x, name: written, type: x.type, unit: x.unit)
        case "row_number":
            guard args.isEmpty else { throw Diagnostic("row_number takes nothing: row_number()", at: span) }
            call = WindowCall(kind: .rowNumber, argument: nil, name: written, type: .int, unit: .automatic)
        case "rank":
            let x = try one("the column to rank by")
            call = WindowCall(kind: .rank, argument: x, name: written, type: .int, unit: .automatic)
        case "running_sum", "cumsum":
            let x = try one("the column to add up")
            let type: DataType
            switch x.type {
            case .int, .bool: type = .int
            case .double: type = .double
            case .duration: type = .duration
            case .null: type = .double
            default: throw Diagnostic("running_sum adds numbers or durations, but this is \(x.type.displayName)", at: span)
            }
            call = WindowCall(kind: .runningSum, argument: x, name: written, type: type, unit: x.type == .duration ? x.unit : .automatic)
        default:
            guard let f = summary else { throw Diagnostic("unknown function \(name)", at: span) }
            if f.isPaired {
                guard args.count == 2 else { throw Diagnostic("\(name) takes two columns, as in \(name)(a, b)", at: span) }
                let (y, x) = (try plain.bind(args[0]), try plain.bind(args[1]))
                let item = AggregateItem(function: f, argument: args[0], second: args[1], distinct: false, alias: nil, span: span)
                let type = try AggregateBinder(schema: schema).resultType(item, y, x)
                call = WindowCall(kind: .summary(f), argument: y, name: written, type: type, unit: .automatic, second: x)
                break
            }
            guard args.count <= 1 else { throw Diagnostic("\(name) over a group takes one column, as in \(name)(x)", at: span) }
            let argument = try args.first.map(plain.bind)
            if f.needsArgument && argument == nil { throw Diagnostic("\(name) needs a column, as in \(name)(x)", at: span) }
            let item = AggregateItem(function: f, argument: args.first, distinct: false, alias: nil, span: span)
            let type = try AggregateBinder(schema: schema).resultType(item, argument)
            var unit = DisplayUnit.automatic
            if let argument, type == argument.type, [.timestamp, .duration].contains(type) { unit = argument.unit }
            call = WindowCall(kind: .summary(f), argument: argument, name: written, type: type, unit: unit)
        }
        return windows.column(for: call)
    }

    func checkPattern(_ pattern: String, _ span: SourceSpan) throws {
        do { _ = try TextPattern(pattern, ignoringCase: false) } catch var d as Diagnostic {
            d.span = span
            throw d
        }
    }

    /// Text that hour() and minute() read as clock times: written out (`hour("0820")`), or a
    /// column whose name says it holds times (`Start_time`); other text is refused, so a
    /// mistyped column is not quietly all null.
    static func namesClockText(_ e: BoundExpr) -> Bool {
        switch e {
        case .literal(.string(let s), _): return ClockText.parse(s) != nil
        case .column(_, let f): return ClockColumns.namesClock(f.name)
        default: return false
        }
    }

    func checkTimeArgument(_ e: BoundExpr, _ name: String, _ span: SourceSpan) throws {
        guard e.type == .timestamp || e.type == .duration || e.type == .null else {
            throw Diagnostic("\(name) needs a time, but this is \(e.type.displayName)", at: span,
                             hint: e.type == .string && [.hour, .minute].contains(TimeBucket.named(name)) ? "for clock times written as text (0820, 8:20 PM): \(name)(timeofday(…))" : nil)
        }
        if e.type == .duration, let b = TimeBucket.named(name), [.weekday, .week, .month, .year].contains(b) {
            throw Diagnostic("a duration has no \(name); \(name) needs a timestamp column", at: span)
        }
    }
}
