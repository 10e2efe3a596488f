import Foundation
@testable import UTQCore

/// The first difference between two tables, or nil. Doubles agree to 1e-9 of their size,
/// since a sum's last digits depend on the order it adds in. Unordered, the rows are compared
/// as multisets (a result whose order the pipeline does not fix may come in any order).
func tableDifference(_ a: Table, _ b: Table, ordered: Bool = true) -> String? {
    if a.columnNames != b.columnNames { return "columns \(a.columnNames) vs \(b.columnNames)" }
    if a.rowCount != b.rowCount { return "rows \(a.rowCount) vs \(b.rowCount)" }
    for (x, y) in zip(a.columns, b.columns) where x.type != y.type { return "\(x.name): \(x.type) vs \(y.type)" }
    func rows(_ t: Table) -> [[Value]] { (0..<t.rowCount).map { i in t.columns.map { $0.value(at: i) } } }
    var left = rows(a), right = rows(b)
    if !ordered {
        // Doubles are rounded for the order only, so rows that agree sort alike.
        func key(_ row: [Value]) -> String {
            row.map { v -> String in
                // -0 is 0 (a group of both may show either).
                if case .double(let d) = v { return String(format: "%.6g", d == 0 ? 0 : d) }
                return "\(v)"
            }.joined(separator: "\u{1}")
        }
        left.sort { key($0) < key($1) }
        right.sort { key($0) < key($1) }
    }
    for (i, (u, v)) in zip(left, right).enumerated() {
        for (k, (p, q)) in zip(u, v).enumerated() {
            if case .double(let x) = p, case .double(let y) = q {
                // NaN is a value like any other here (utq sorts and groups it as one); an
                // infinity must match exactly, as x - y is NaN between equal infinities.
                if x.isNaN && y.isNaN || x == y || abs(x - y) <= 1e-9 * max(1, abs(x)) { continue }
            }
            if p != q { return "\(a.columnNames[k]) row \(i): \(p) vs \(q)" }
        }
    }
    return nil
}
