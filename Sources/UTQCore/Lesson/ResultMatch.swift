/// Whether a student's result is the answer's: the same columns (by name, else by place),
/// the same rows and values (numbers to 6 significant digits), in the same order only when
/// the answer sorts. What differs is said without giving the answer away.
enum ResultMatch {
    static func difference(expected: Table, got: Table, ordered: Bool) -> String? {
        guard got.columns.count == expected.columns.count else {
            return "your result has \(NumberText.counted(got.columns.count, "column")); the answer's has \(expected.columns.count)"
        }
        // Columns by name first, the rest in the order they come.
        var used = Set<Int>()
        var pairs: [Int] = []
        for c in expected.columns {
            if let j = got.columns.firstIndex(where: { $0.name.lowercased() == c.name.lowercased() }), !used.contains(j) {
                pairs.append(j); used.insert(j)
            } else {
                pairs.append(-1)
            }
        }
        var free = got.columns.indices.filter { !used.contains($0) }.makeIterator()
        pairs = pairs.map { $0 >= 0 ? $0 : free.next()! }
        guard got.rowCount == expected.rowCount else {
            return "your result has \(NumberText.counted(got.rowCount, "row")); the answer's has \(expected.rowCount)"
        }
        func rows(_ t: Table, _ columns: [Int]) -> [[String]] {
            (0..<t.rowCount).map { r in columns.map { cell(t.columns[$0].value(at: r)) } }
        }
        var mine = rows(got, pairs), theirs = rows(expected, Array(expected.columns.indices))
        if !ordered {
            mine.sort { $0.lexicographicallyPrecedes($1) }
            theirs.sort { $0.lexicographicallyPrecedes($1) }
        }
        for (r, (a, b)) in zip(mine, theirs).enumerated() where a != b {
            let c = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }!.offset
            let name = got.columns[pairs[c]].name
            if ordered && Set(mine) == Set(theirs) { return "the rows are right, but not in the order asked for" }
            if ordered { return "row \(r + 1) differs from the answer's in \(name)" }
            let shown = zip(pairs, a).prefix(3).map { "\(got.columns[$0.0].name) = \($0.1)" }.joined(separator: ", ")
            return "your result has a row the answer does not (\(shown)); look at \(name)"
        }
        return nil
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
