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
        /// Whether the rows come in the order the database keeps the table's rows: a scan, and
        /// the filters and projections over it (which keep that order, as in memory).
        var inTableOrder = false
        /// Whether the SQL ends by ordering the rows as utq has them: a join's, a union's or a
        /// window's whose order matters above (and the filters and projections over it).
        var inUtqOrder = false
        /// Where the rows are a table split over other servers (and filters and projections
        /// over it): the scan's FROM, and each part to read in its place.
        var partitioned: Partitioned?

        struct Partitioned { var from: String; var parts: [String] }
        /// The columns of the table's stored order, last in the SQL's columns after the schema's
        /// (see `TableOrder`): carried while the rows are in the table's order, never read back.
        var hidden: [String] = []
        /// Why the table's order is only the order its partitions give the rows, for explain:
        /// kept while a step relies on that order.
        var orderNote: String?
        /// Whether the order of these rows matters above (as placement said).
        var orderMatters = true
    }

    /// Numbers rows in the order the table gives them: its stored order where it keeps one.
    func rowNumber(_ below: Relation) -> String {
        below.inTableOrder && !below.hidden.isEmpty ? "row_number() OVER (ORDER BY \(below.hidden.joined(separator: ", ")))" : "row_number() OVER ()"
    }

    /// The note that rows in table order come as the partitions give them, for the steps that rely on it.
    static func orderNote(_ inputs: [Relation]) -> String? {
        inputs.first { $0.inTableOrder && $0.orderNote != nil }?.orderNote
    }

    /// The key columns the rows come in the order of, as a summary gave them.
    func keyOrder(_ schema: Schema) -> [Field]? {
        guard let keys = schema.keyOrder, !keys.isEmpty else { return nil }
        let fields = keys.compactMap { k in schema.index(of: k).map { schema.fields[$0] } }
        return fields.count == keys.count ? fields : nil
    }

    /// The names a weekday or month column's codes stand for.
    func codesOf(_ e: BoundExpr, _ below: Relation) throws -> [String]? {
        coded(e, below.codes)
    }

    func expr(_ e: BoundExpr, _ schema: Schema, _ codes: [String: [String]] = [:]) throws -> String {
        switch e {
        case .column(_, let f):
            return connection.identifier(f.name)
        case .literal(let v, _):
            if v.type == .geometry { try needPostGIS() }
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
            if let range = try periodCondition(op, l, r, schema, codes) ?? spanCondition(op, l, r, schema, codes) { return range }
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
            let form = TimeBuckets.spec(bucket).sql
            var step: Int64 = 0
            if case .every(let s) = bucket { step = s }
            let call = SQLCall(arguments: [try expr(x, schema, codes)], types: [x.type], zone: connection.literal(zone.identifier), step: step)
            guard let sql = form.sql(call) else { throw NotInSQL("\(bucket.name): " + (form.reason(for: call) ?? "no SQL form")) }
            return sql
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
        // A join casts both sides of a comparison of numbers to number, one that is one already.
        case .cast(let x, let type) where x.type == type:
            return try expr(x, schema, codes)
        case .cast:
            throw NotInSQL("this conversion has no SQL form")
        case .call(let f, let args, let type):
            if type == .geometry || args.contains(where: { $0.type == .geometry }) { try needPostGIS() }
            var call = SQLCall(arguments: try args.map { try expr($0, schema, codes) }, types: args.map(\.type))
            call.spaces = args.map(\.space)
            call.constants = args.map { if case .literal(let v, _) = $0 { return v } else { return nil } }
            guard let sql = f.sql.sql(call) else {
                throw NotInSQL("\(f.name)(): " + (f.sql.reason(for: call) ?? "no SQL form for \(args.map(\.type.displayName).joined(separator: " and "))"))
            }
            return sql
        }
    }

    /// Geometries are computed only where PostGIS is; elsewhere the step runs in memory.
    func needPostGIS() throws {
        guard database.postgis.available else { throw NotInSQL(database.postgis.missing) }
    }

    /// The names a coded expression's numbers stand for (a weekday or month bucket, or a
    /// column below that carries one), or nil for an expression sent as itself.
    func coded(_ e: BoundExpr, _ codes: [String: [String]]) -> [String]? {
        switch e {
        case .bucket(let b, _, _): return TimeBuckets.spec(b).codes
        case .column(_, let f): return codes[f.name]
        default: return nil
        }
    }

    func aggregate(_ a: BoundAggregate, _ schema: Schema) throws -> String {
        try summary(a.function, a.arguments, schema, distinct: a.distinct)
    }

    /// A summary in SQL from the registry's form: over a group, or over a window (`over`).
    func summary(_ f: AggregateFunction, _ arguments: [BoundExpr], _ schema: Schema, codes: [String: [String]] = [:],
                 distinct: Bool = false, over: String = "") throws -> String {
        let call = SQLCall(arguments: try arguments.map { try expr($0, schema, codes) }, types: arguments.map(\.type),
                           distinct: distinct, over: over)
        guard let sql = f.sql.sql(call) else {
            throw NotInSQL(f.sql.reason(for: call) ?? "\(f.name) has no SQL form")
        }
        return sql
    }

    func literal(_ v: Value) -> String {
        switch v {
        case .null: return "NULL"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)::float8" : (d.isNaN ? "'NaN'::float8" : (d > 0 ? "'Infinity'::float8" : "'-Infinity'::float8"))
        case .bool(let b): return b ? "TRUE" : "FALSE"
        case .string(let s): return connection.literal(s)
        // A constant the server reads once, which postgres_fdw ships to a shard as it is (it
        // keeps the arithmetic of 'epoch' plus an interval, which depends on the zone, at home).
        case .timestamp(let micros): return "TIMESTAMPTZ '\(isoUTC(micros))'"
        case .duration(let micros): return String(micros)
        case .geometry(let g): return "ST_GeomFromEWKT(\(connection.literal(g.databaseText)))"
        }
    }
}
