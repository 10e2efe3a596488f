/// Whether a student's result is the answer's: the answer's columns (by name, else by place;
/// others may be there too unless the exercise asks for exactly the answer's), the same rows
/// and values (numbers to 6 significant digits), and, when the answer sorts, the order of its
/// sort keys (rows that tie on them may come in any order). What differs is said without
/// giving the answer away.
enum ResultMatch {
    /// What the order of the rows must be.
    enum Order: Equatable {
        /// Any order: the answer does not sort.
        case any
        /// The answer sorts by these columns: their values must come in its order.
        case keys([String])
        /// The answer sorts by something that is no column: the rows in its order.
        case rows
    }

    /// How the answer's plan orders its rows: by the columns of its last sort, when they are columns.
    static func order(of plan: LogicalPlan?) -> Order {
        guard let plan, plan.sortsOutput else { return .any }
        var p = plan
        while !p.is(SortNode.self), p.inputs.count == 1 { p = p.inputs[0] }
        guard let sort = p.as(SortNode.self) else { return .rows }
        var names: [String] = []
        for key in sort.keys {
            guard case .column(_, let f) = key.expr, plan.schema.index(of: f.name) != nil else { return .rows }
            names.append(f.name)
        }
        return .keys(names)
    }

    static func difference(expected: Table, got: Table, order: Order, exact: Bool = false) -> String? {
        // The answer's columns in the student's result: by name when all are there, else by place.
        let byName = expected.columns.map { c in got.columns.firstIndex { $0.name.lowercased() == c.name.lowercased() } }
        var pairs: [Int]
        if byName.allSatisfy({ $0 != nil }) && Set(byName.map { $0! }).count == byName.count {
            pairs = byName.map { $0! }
            if exact && got.columns.count != expected.columns.count {
                let extra = got.columns.indices.filter { !pairs.contains($0) }.map { got.columns[$0].name }
                return "this one asks for the answer's columns only; yours also has \(extra.joined(separator: ", "))"
            }
        } else if got.columns.count == expected.columns.count {
            pairs = Array(got.columns.indices)
            var used = Set<Int>()
            for (k, j) in byName.enumerated() { if let j, !used.contains(j) { pairs[k] = j; used.insert(j) } else { pairs[k] = -1 } }
            var free = got.columns.indices.filter { !used.contains($0) }.makeIterator()
            pairs = pairs.map { $0 >= 0 ? $0 : free.next()! }
        } else {
            let missing = expected.columns.indices.filter { byName[$0] == nil }.map { expected.columns[$0].name }
            return "your result has \(NumberText.counted(got.columns.count, "column")); the answer's has \(expected.columns.count)"
                + (missing.isEmpty ? "" : " (yours has no \(missing.joined(separator: ", ")))")
        }
        guard got.rowCount == expected.rowCount else {
            return "your result has \(NumberText.counted(got.rowCount, "row")); the answer's has \(expected.rowCount)"
        }
        func rows(_ t: Table, _ columns: [Int]) -> [[String]] {
            (0..<t.rowCount).map { r in columns.map { cell(t.columns[$0].value(at: r)) } }
        }
        let mine = rows(got, pairs), theirs = rows(expected, Array(expected.columns.indices))
        // The same rows, in any order, first.
        let sortedMine = mine.sorted { $0.lexicographicallyPrecedes($1) }, sortedTheirs = theirs.sorted { $0.lexicographicallyPrecedes($1) }
        for (a, b) in zip(sortedMine, sortedTheirs) where a != b {
            let c = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }!.offset
            let name = got.columns[pairs[c]].name
            let shown = zip(pairs, a).prefix(3).map { "\(got.columns[$0.0].name) = \($0.1)" }.joined(separator: ", ")
            return "your result has a row the answer does not (\(shown)); look at \(name)"
        }
        // Then the order the answer asks for.
        switch order {
        case .any:
            return nil
        case .rows:
            return mine == theirs ? nil : "the rows are right, but not in the order asked for"
        case .keys(let names):
            let keyColumns = names.compactMap { n in expected.columns.firstIndex { $0.name.lowercased() == n.lowercased() } }
            let mineKeys = mine.map { row in keyColumns.map { row[$0] } }, theirKeys = theirs.map { row in keyColumns.map { row[$0] } }
            return mineKeys == theirKeys ? nil : "the rows are right, but not in the order asked for (by \(names.joined(separator: ", ")))"
        }
    }

    /// A value as text to compare: numbers to 6 significant digits, so 0.1 + 0.2 is 0.3.
    static func cell(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .int(let i): return number(Double(i))
        case .double(let d): return number(d)
        default: return v.plainText
        }
    }

    static func number(_ d: Double) -> String {
        guard d.isFinite, d != 0 else { return d == 0 ? "0" : "\(d)" }
        let scale = pow(10, 5 - floor(log10(abs(d))))
        let rounded = (d * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : "\(rounded)"
    }
}

import Foundation
