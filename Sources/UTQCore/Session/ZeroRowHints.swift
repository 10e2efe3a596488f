/// When a `where` keeps no rows (or its count is 0), the likely slip: a text value the column never holds,
/// written in another case or with a typo (`legend has no value "bike" — did you mean
/// "Bike"?`). A note, not an error: no rows may well be the answer.
struct ZeroRowHints {
    let interpreter: Interpreter

    /// No rows, or one row of nothing but zeros and nulls (`where legend = "bike" | count`
    /// gives a count of 0): the answer a mistyped value would give.
    static func looksEmpty(_ t: Table) -> Bool {
        if t.rowCount == 0 { return true }
        guard t.rowCount == 1 else { return false }
        var numbers = 0
        for c in t.columns {
            switch c.value(at: 0) {
            case .int(0), .null: numbers += 1
            case .double(let d) where d == 0: numbers += 1
            case .int, .double: return false
            default: continue
            }
        }
        return numbers > 0
    }

    func notes(for plan: LogicalPlan) -> [String] {
        var out: [String] = []
        visit(plan, &out)
        return out
    }

    private func visit(_ plan: LogicalPlan, _ out: inout [String]) {
        if let filter = plan.as(FilterNode.self) {
            for (field, wanted) in Self.textEqualities(filter.predicate) {
                if let note = note(field, wanted, filter.input), !out.contains(note) { out.append(note) }
            }
        }
        for input in plan.inputs { visit(input, &out) }
    }

    /// `column = "text"` and `column in ("a", "b")` in a condition.
    static func textEqualities(_ e: BoundExpr) -> [(Field, String)] {
        switch e {
        case .binary(.and, let l, let r, _), .binary(.or, let l, let r, _):
            return textEqualities(l) + textEqualities(r)
        case .binary(.equal, .column(_, let f), .literal(.string(let s), _), _),
             .binary(.equal, .literal(.string(let s), _), .column(_, let f), _):
            return [(f, s)]
        case .inList(.column(_, let f), let values, false):
            return values.compactMap { if case .string(let s) = $0 { return (f, s) } else { return nil } }
        default:
            return []
        }
    }

    private func note(_ field: Field, _ wanted: String, _ input: LogicalPlan) -> String? {
        guard field.type == .string, let i = input.schema.index(of: field.name) else { return nil }
        let distinct = AggregateNode.distinct(input, column: i)
        guard let t = try? interpreter.rows(of: distinct), t.rowCount <= 100_000 else { return nil }
        let values = (0..<t.rowCount).compactMap { r -> String? in if case .string(let s) = t.columns[0].value(at: r) { return s } else { return nil } }
        guard !values.contains(wanted) else { return nil }
        if let same = values.first(where: { $0.lowercased() == wanted.lowercased() }) ?? Suggest.closest(wanted, among: values) {
            return "\(field.name) has no value \"\(wanted)\" — did you mean \"\(same)\"?"
        }
        let shown = values.count <= 8 ? "; its values are " + values.map { "\"\($0)\"" }.joined(separator: ", ") : ""
        return "\(field.name) has no value \"\(wanted)\"" + shown
    }
}
