import Foundation
@testable import UTQCore

/// The first difference between two tables whose cells may be geometries, or nil: numbers
/// agree to 1e-9 of their size, and the columns named in `metres` (geodesic distances) to a
/// millimetre as well; geometries have the same kind, space, parts, rings and number of
/// points, each coordinate within 1e-9 of its size. Rows are compared in order.
func geometryDifference(_ a: Table, _ b: Table, metres: Set<String> = []) -> String? {
    if a.columnNames != b.columnNames { return "columns \(a.columnNames) vs \(b.columnNames)" }
    if a.rowCount != b.rowCount { return "rows \(a.rowCount) vs \(b.rowCount)" }
    for (x, y) in zip(a.columns, b.columns) where x.type != y.type { return "\(x.name): \(x.type) vs \(y.type)" }
    func close(_ x: Double, _ y: Double, metres: Bool) -> Bool {
        x == y || x.isNaN && y.isNaN || abs(x - y) <= max(1e-9 * max(1, abs(x)), metres ? 1e-3 : 0)
    }
    for (k, column) in a.columns.enumerated() {
        let other = b.columns[k]
        for row in 0..<a.rowCount {
            let p = column.value(at: row), q = other.value(at: row)
            let same: Bool
            switch (p, q) {
            case (.double(let x), .double(let y)):
                same = close(x, y, metres: metres.contains(column.name))
            case (.geometry(let g), .geometry(let h)):
                same = g.kind == h.kind && g.space == h.space && g.rings == h.rings && g.parts == h.parts && g.xs.count == h.xs.count
                    && zip(g.xs, h.xs).allSatisfy { close($0, $1, metres: false) } && zip(g.ys, h.ys).allSatisfy { close($0, $1, metres: false) }
            default:
                same = p == q
            }
            if !same { return "\(column.name) row \(row): \(p) vs \(q)" }
        }
    }
    return nil
}
