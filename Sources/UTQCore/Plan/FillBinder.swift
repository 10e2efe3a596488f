/// Binds `fill`: which key is the time axis and how it steps.
enum FillBinder {
    static func bind(_ input: LogicalPlan, step: Int64?) throws -> LogicalPlan {
        let schema = input.schema
        var keyIndex: Int? = nil
        var inferred: FillStep? = nil
        if let keys = input.as(AggregateNode.self)?.keys {
            for (i, k) in keys.enumerated() {
                if case .bucket(let b, let target, _) = k.expr {
                    keyIndex = i
                    inferred = TimeBuckets.spec(b).fill(b, target.type)
                    if inferred != nil { break }
                }
            }
        }
        if keyIndex == nil {
            // After a summary only its keys can be filled between; its counts are not a key.
            var candidates = schema.fields.indices
            if let keys = input.as(AggregateNode.self)?.keys { candidates = 0..<keys.count }
            keyIndex = candidates.first(where: { schema.fields[$0].type == .timestamp || schema.fields[$0].type == .int || schema.fields[$0].type == .duration })
        }
        guard let key = keyIndex else {
            throw Diagnostic("fill needs a time or number key to fill between", hint: "use it after count by hour or count by every 15m")
        }
        let field = schema.fields[key]
        let finalStep: FillStep
        if let step { finalStep = .micros(step) }
        else if let inferred { finalStep = inferred }
        else if field.type == .int { finalStep = .integer }
        else {
            throw Diagnostic("fill cannot tell the span between \(field.name) values", hint: "give it: fill 15m")
        }
        // New rows hold zero in counts and sums (elsewhere null), and are made for every
        // combination of the other keys.
        var zeroColumns: Set<Int> = []
        var otherKeys: [Int] = []
        if let summary = input.as(AggregateNode.self) {
            let keys = summary.keys, aggregates = summary.aggregates
            otherKeys = Array(0..<keys.count).filter { $0 != key }
            for (i, a) in aggregates.enumerated() where a.function == .count || a.function == .sum {
                zeroColumns.insert(keys.count + i)
            }
        } else {
            for (i, f) in schema.fields.enumerated() where i != key {
                if f.type == .string { otherKeys.append(i) } else if f.type.isNumeric { zeroColumns.insert(i) }
            }
        }
        return LogicalPlan(FillNode(input, FillSpec(key: key, step: finalStep, otherKeys: otherKeys, zeroColumns: zeroColumns)))
    }
}
