import Foundation
import UTQCore

/// A plan step the compiler does not translate, with why: it runs in memory, over the rows
/// of the part below it that does.
typealias NotInSQL = NotInDatabase

/// A step's form in SQL: a SELECT over the SELECTs of its inputs (PostgreSQL flattens them
/// into one plan). A step without one runs in memory. `orderMatters`: whether the order of the
/// step's rows matters above it.
protocol SQLStep: PlanNode {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation
}

/// Translates plan steps into PostgreSQL, one step at a time over its inputs' translations,
/// and expressions within them. What a step cannot say in SQL throws `NotInSQL` with the
/// reason, and placement keeps that step in memory.
struct SQLCompiler {
    let database: PostgresDatabase
    var connection: PGConnection { database.connection }

    /// A compiled step: its SQL and how its text columns are read back: those that carry codes
    /// (a weekday sent as its number), and those whose values have an order of their own (a
    /// column of an enum type, as `save to` writes a legend whose order its project fixed). It
    /// carries the loaded tables its SQL reads from temporary tables, to be copied in first.
    struct Relation: DatabaseStep {
        var sql: String
        var codes: [String: [String]] = [:]
        var labels: [String: [String]] = [:]
        var copies: [PlannedCopy] = []
        /// For `describe`: the columns of the rows it describes (the SQL above, whose codes and
        /// labels these are), counted by queries of their own. No step is put over it in SQL.
        var described: Schema?
        /// Whether the SQL ends by sorting the rows in their key order (a summary by keys that
        /// sort alike in both engines).
        var givesKeyOrder = false
    }

    /// The key columns the rows come in the order of, as a summary gave them.
    func keyOrder(_ schema: Schema) -> [Field]? {
        guard let keys = schema.keyOrder, !keys.isEmpty else { return nil }
        let fields = keys.compactMap { k in schema.index(of: k).map { schema.fields[$0] } }
        return fields.count == keys.count ? fields : nil
    }

    /// A bucket under a day as utq makes it: the row's instant moved back by as much wall
    /// time as it is past the bucket's start, so the hour that repeats when clocks go back is
    /// a bucket of its own; where that start does not exist at the row's offset, the instant
    /// of the start's wall time.
    private func subDay(_ instant: String, _ local: String, cut: String, zone: ZoneRules) -> String {
        let z = connection.literal(zone.identifier)
        let start = "(\(instant) - (\(local) - \(cut)))"
        return "(CASE WHEN (\(start) AT TIME ZONE \(z)) = \(cut) THEN \(start) ELSE (\(cut) AT TIME ZONE \(z)) END)"
    }

    /// The names a weekday or month column's codes stand for.
    func codesOf(_ e: BoundExpr, _ below: Relation) throws -> [String]? {
        switch e {
        case .bucket(.weekday, _, _): return CivilTime.weekdayNames
        case .bucket(.monthOfYear, _, _): return CivilTime.monthNames
        case .column(_, let f): return below.codes[f.name]
        default: return nil
        }
    }

    func expr(_ e: BoundExpr, _ schema: Schema, _ codes: [String: [String]] = [:]) throws -> String {
        switch e {
        case .column(_, let f):
            return connection.identifier(f.name)
        case .literal(let v, _):
            return literal(v)
        case .unary(.not, let x, _):
            return "(NOT \(try expr(x, schema, codes)))"
        case .unary(.negate, let x, _):
            return "(-\(try expr(x, schema, codes)))"
        case .binary(let op, let l, let r, let type):
            // A weekday or month is sent as its number: a name it is compared with becomes one too.
            if op == .equal || op == .notEqual, let names = coded(l, codes), case .literal(.string(let name), _) = r {
                return "(\(try expr(l, schema, codes)) \(op == .equal ? "=" : "<>") \(names.firstIndex(of: name) ?? -1))"
            }
            let a = try expr(l, schema, codes), b = try expr(r, schema, codes)
            if l.type == .string || r.type == .string {
                // Text comparisons are exact in both engines; other text operators are utq's own.
                switch op {
                case .equal: return "(\(a) = \(b))"
                case .notEqual: return "(\(a) <> \(b))"
                default: throw NotInSQL("\(op.rawValue) on text is utq's own (it ignores case), not the database's")
                }
            }
            // Times and durations (microseconds): a difference of two times, a time moved by a duration.
            if op == .subtract, l.type == .timestamp, r.type == .timestamp {
                return "(extract(epoch FROM (\(a) - \(b))) * 1000000)::int8"
            }
            if op == .add || op == .subtract, l.type == .timestamp, r.type == .duration {
                return "(\(a) \(op.rawValue) (\(b) * INTERVAL '1 microsecond'))"
            }
            if op == .add, l.type == .duration, r.type == .timestamp {
                return "(\(b) + (\(a) * INTERVAL '1 microsecond'))"
            }
            switch op {
            case .add, .subtract, .multiply:
                if type == .double { return "(\(a)::float8 \(op.rawValue) \(b)::float8)" }
                if [.int, .duration].contains(type), l.type != .timestamp { return "(\(a) \(op.rawValue) \(b))" }
                throw NotInSQL("\(op.rawValue) on times has no SQL form")
            case .divide:
                // Division by zero is null in utq.
                return "(\(a)::float8 / NULLIF(\(b), 0)::float8)"
            case .equal: return "(\(a) = \(b))"
            case .notEqual: return "(\(a) <> \(b))"
            case .less, .lessEqual, .greater, .greaterEqual: return "(\(a) \(op.rawValue) \(b))"
            case .and: return "(\(a) AND \(b))"
            case .or: return "(\(a) OR \(b))"
            default: throw NotInSQL("\(op.rawValue) has no SQL form")
            }
        case .bucket(let bucket, let x, let zone):
            guard x.type == .timestamp else { throw NotInSQL("\(bucket.name) of a service time (a duration) has no SQL form") }
            let local = "(\(try expr(x, schema, codes)) AT TIME ZONE \(connection.literal(zone.identifier)))"
            let back = " AT TIME ZONE \(connection.literal(zone.identifier))"
            switch bucket {
            case .hour: return "extract(hour FROM \(local))::int8"
            case .year: return "extract(year FROM \(local))::int8"
            case .weekday: return "(extract(isodow FROM \(local))::int8 - 1)"
            case .monthOfYear: return "(extract(month FROM \(local))::int8 - 1)"
            case .minute: return subDay(try expr(x, schema, codes), local, cut: "date_trunc('minute', \(local))", zone: zone)
            case .day: return "(date_trunc('day', \(local))\(back))"
            case .week: return "(date_trunc('week', \(local))\(back))"
            case .month: return "(date_trunc('month', \(local))\(back))"
            case .every(let micros) where micros < CivilTime.microsPerDay:
                // Spans under a day start at each local midnight (every 7m: …, 23:55, then 00:00).
                let midnight = "date_trunc('day', \(local))"
                let cut = "(\(midnight) + floor(extract(epoch FROM (\(local) - \(midnight))) * 1000000 / \(micros)) * \(micros) * INTERVAL '1 microsecond')"
                return subDay(try expr(x, schema, codes), local, cut: cut, zone: zone)
            case .every(let micros):
                return "(date_bin(\(micros) * INTERVAL '1 microsecond', \(local), TIMESTAMP '1970-01-01')\(back))"
            case .timeOfDay: throw NotInSQL("time_of_day has no SQL form")
            }
        case .isNull(let x, let negated):
            return "(\(try expr(x, schema, codes)) IS \(negated ? "NOT " : "")NULL)"
        case .inList(let x, let values, let negated):
            guard !values.isEmpty else { return negated ? "TRUE" : "FALSE" }
            if let names = coded(x, codes) {
                let numbers = values.map { v -> String in
                    if case .string(let name) = v { return String(names.firstIndex(of: name) ?? -1) }
                    return literal(v)
                }
                return "(\(try expr(x, schema, codes)) \(negated ? "NOT IN" : "IN") (\(numbers.joined(separator: ", "))))"
            }
            return "(\(try expr(x, schema, codes)) \(negated ? "NOT IN" : "IN") (\(values.map(literal).joined(separator: ", "))))"
        case .cast(let x, .double) where x.type == .int:
            return "(\(try expr(x, schema, codes)))::float8"
        case .cast:
            throw NotInSQL("this conversion has no SQL form")
        case .call(let f, let args, _):
            let a = try args.map { try expr($0, schema, codes) }
            switch (f.name, a.count) {
            case ("abs", 1): return "abs(\(a[0]))"
            case ("coalesce", _): return "coalesce(\(a.joined(separator: ", ")))"
            case ("lower", 1): return "lower(\(a[0]))"
            case ("upper", 1): return "upper(\(a[0]))"
            default: throw NotInSQL("\(f.name)() has no SQL form")
            }
        }
    }

    /// The names a coded expression's numbers stand for (a weekday or month bucket, or a
    /// column below that carries one), or nil for an expression sent as itself.
    func coded(_ e: BoundExpr, _ codes: [String: [String]]) -> [String]? {
        switch e {
        case .bucket(.weekday, _, _): return CivilTime.weekdayNames
        case .bucket(.monthOfYear, _, _): return CivilTime.monthNames
        case .column(_, let f): return codes[f.name]
        default: return nil
        }
    }

    func aggregate(_ a: BoundAggregate, _ schema: Schema) throws -> String {
        let x = try a.argument.map { try expr($0, schema) }
        let distinct = a.distinct ? "DISTINCT " : ""
        switch a.function {
        case .count: return x.map { "count(\(distinct)\($0))" } ?? "count(*)"
        // Sums of numbers add exactly (numeric), as utq's compensated sums nearly do: adding
        // 1e15, 0.5 and -1e15 in float8 loses the half.
        case .sum: return a.argument?.type == .double ? "(sum(\(distinct)\(x!)::numeric))::float8" : "sum(\(distinct)\(x!))"
        case .avg: return "(avg(\(distinct)\(x!)::numeric))::float8"
        // Text has utq's natural order (or a column's own), which the database's min and max do not.
        case .min where a.argument?.type == .string, .max where a.argument?.type == .string: throw NotInSQL("\(a.function.name) of text follows utq's natural order, which no collation of the database gives")
        case .min: return "min(\(x!))"
        case .max: return "max(\(x!))"
        case .stddev: return "(stddev_samp(\(x!)::numeric))::float8"
        // utq's quantiles interpolate between ranks, as percentile_cont does.
        case .median: return "percentile_cont(0.5) WITHIN GROUP (ORDER BY \(x!))"
        case .percentile(let p): return "percentile_cont(\(Double(p) / 100)) WITHIN GROUP (ORDER BY \(x!))"
        default: throw NotInSQL("\(a.function.name) has no SQL form")
        }
    }

    func literal(_ v: Value) -> String {
        switch v {
        case .null: return "NULL"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)::float8" : (d.isNaN ? "'NaN'::float8" : (d > 0 ? "'Infinity'::float8" : "'-Infinity'::float8"))
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .string(let s): return connection.literal(s)
        case .timestamp(let micros): return "(TIMESTAMPTZ 'epoch' + \(micros) * INTERVAL '1 microsecond')"
        case .duration(let micros): return String(micros)
        }
    }
}
