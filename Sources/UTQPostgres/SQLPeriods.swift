import UTQCore

/// Conditions on a period of a time (`where day(requested_at) = "2020-02-20"`, `month(t) >=
/// …`, `year(t) = 2020`) sent as a range of the time itself. PostgreSQL then uses an index or
/// skips partitions, and postgres_fdw sends the condition to the shards: it sends no function
/// that takes a text constant (the zone, the field's name), so a bucket computed on the server
/// would bring every row to the coordinator.
extension SQLCompiler {
    func periodCondition(_ op: BinaryOp, _ l: BoundExpr, _ r: BoundExpr, _ schema: Schema, _ codes: [String: [String]]) throws -> String? {
        // The bucket on the left, its constant on the right.
        let flipped: [BinaryOp: BinaryOp] = [.equal: .equal, .notEqual: .notEqual, .less: .greater, .lessEqual: .greaterEqual,
                                             .greater: .less, .greaterEqual: .lessEqual]
        var op = op, bucketSide = l, constant = r
        if case .literal = l, case .bucket = r {
            guard let f = flipped[op] else { return nil }
            op = f; bucketSide = r; constant = l
        }
        guard case .bucket(let bucket, let time, let zone) = bucketSide, time.type == .timestamp,
              case .literal(let v, _) = constant else { return nil }
        let value: Int64
        switch (bucket, v) {
        case (.year, .int(let y)): value = y
        case (.day, .timestamp(let t)), (.week, .timestamp(let t)), (.month, .timestamp(let t)): value = t
        default: return nil
        }
        guard let period = TimeBuckets.period(bucket, value, zone: zone) else { return nil }
        let x = try expr(time, schema, codes)
        let start = literal(.timestamp(period.start)), end = literal(.timestamp(period.end))
        switch op {
        case .equal: return "(\(x) >= \(start) AND \(x) < \(end))"
        case .notEqual: return "(\(x) < \(start) OR \(x) >= \(end))"
        case .less: return "(\(x) < \(start))"
        case .greaterEqual: return "(\(x) >= \(start))"
        case .lessEqual: return "(\(x) < \(end))"
        case .greater: return "(\(x) >= \(end))"
        default: return nil
        }
    }
}

extension SQLCompiler {
    /// A condition on the time between two times (`dropped_off_at - picked_up_at > 30m`) sent
    /// as PostgreSQL's interval compared with a constant one, which a shard can take (the time
    /// in microseconds is read with `extract`, which postgres_fdw keeps on the coordinator).
    /// The two compare alike: an interval is compared by its whole length.
    func spanCondition(_ op: BinaryOp, _ l: BoundExpr, _ r: BoundExpr, _ schema: Schema, _ codes: [String: [String]]) throws -> String? {
        guard [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual].contains(op) else { return nil }
        func span(_ e: BoundExpr) -> (BoundExpr, BoundExpr)? {
            if case .binary(.subtract, let a, let b, _) = e, a.type == .timestamp, b.type == .timestamp { return (a, b) }
            return nil
        }
        let sqlOp = op == .notEqual ? "<>" : op.rawValue
        if let (a, b) = span(l), case .literal(.duration(let m), _) = r {
            return "((\(try expr(a, schema, codes)) - \(try expr(b, schema, codes))) \(sqlOp) INTERVAL '\(m) microseconds')"
        }
        if let (a, b) = span(r), case .literal(.duration(let m), _) = l {
            return "(INTERVAL '\(m) microseconds' \(sqlOp) (\(try expr(a, schema, codes)) - \(try expr(b, schema, codes))))"
        }
        return nil
    }
}
