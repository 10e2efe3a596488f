import Foundation
import UTQCore

/// A table's own order: what `limit`, `head`, the tiebreak of a sort and the windows that
/// read rows in order (prev, running_sum, row_number) take as "the order the table gives its
/// rows", as memory takes the order a file gives them.
///
/// A plain table gives its rows in the order it keeps them. A partitioned table gives them
/// partition by partition (from two shards, the first shard's, then the second's), so the
/// rows of a file loaded into one would not come back in the file's order. A whole-number
/// column named `utq_row` is the table's stored order: it is not one of the table's columns
/// in utq, and the rows come in its order. A partitioned or foreign table without one but with
/// a primary key comes in the key's order.
enum TableOrder: Equatable {
    /// The `utq_row` column, or the primary key's columns.
    case columns([String])
    /// No order the database keeps: the rows come as the partitions give them (why, for explain).
    case partitions(String)

    /// The name of the column that holds a table's stored order.
    static let column = "utq_row"

    /// The columns the rows are ordered by (none for `.partitions`).
    var columns: [String] {
        if case .columns(let c) = self { return c }
        return []
    }

    /// The name a stored order's column has in the compiled SQL: last in a scan's columns, and
    /// carried by the steps that keep the table's order, under a name no step gives a column.
    static func hiddenName(_ k: Int) -> String { "\"utq_order\(k)\"" }
}

extension PostgresDatabase {
    /// The order of each table that keeps one (by its name in the database): its `utq_row`
    /// (`stored`), else for a partitioned or foreign table its primary key, else a note that
    /// its rows come as its partitions give them.
    func tableOrders(kinds: [String: String], stored: Set<String>) throws -> [String: TableOrder] {
        var orders: [String: TableOrder] = [:]
        for table in stored { orders[table] = .columns([TableOrder.column]) }
        let unordered = kinds.filter { ["p", "f"].contains($0.value) && !stored.contains($0.key) }
        guard !unordered.isEmpty else { return orders }
        let keys = try connection.query("""
            SELECT c.relname, a.attname
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE i.indisprimary AND c.relkind IN ('p', 'f') AND n.nspname = ANY (current_schemas(false))
            ORDER BY c.relname, k.position
            """)
        var primary: [String: [String]] = [:]
        for i in 0..<keys.count { primary[keys.cells[0][i], default: []].append(keys.cells[1][i]) }
        for (table, kind) in unordered {
            if let key = primary[table], !key.isEmpty {
                orders[table] = .columns(key)
            } else {
                orders[table] = .partitions(kind == "p"
                    ? "its rows come in the order its partitions give them (it has no utq_row column or primary key)"
                    : "its rows come in the order the other server gives them (it has no utq_row column or primary key)")
            }
        }
        return orders
    }
}
