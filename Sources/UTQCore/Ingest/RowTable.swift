/// Builds a table row by row from decoded values, for the structured formats (Prishtina,
/// NVDB) whose files are small documents. Each column has a declared type.
struct RowTable {
    let name: String
    private(set) var fields: [(name: String, type: DataType, unit: DisplayUnit)]
    private var values: [[Value]]

    init(name: String, _ fields: [(String, DataType)]) {
        self.name = name
        self.fields = fields.map { ($0.0, $0.1, DisplayUnit.automatic) }
        values = Array(repeating: [], count: fields.count)
    }

    mutating func setUnit(_ column: String, _ unit: DisplayUnit) {
        if let i = fields.firstIndex(where: { $0.name == column }) { fields[i].unit = unit }
    }

    /// Adds a column after the fact (NVDB properties appear as they are met); earlier rows get null.
    mutating func addColumn(_ name: String, _ type: DataType) -> Int {
        if let i = fields.firstIndex(where: { $0.name == name }) { return i }
        fields.append((name, type, .automatic))
        values.append(Array(repeating: .null, count: rowCount))
        return fields.count - 1
    }

    var rowCount: Int { values.first?.count ?? 0 }

    mutating func append(_ row: [Value]) {
        for i in 0..<fields.count { values[i].append(i < row.count ? row[i] : .null) }
    }

    mutating func set(_ column: Int, _ value: Value) {
        values[column][values[column].count - 1] = value
    }

    func table(zone: ZoneRules, rowNoun: String = "rows", orderedText: Set<String> = []) -> Table {
        var columns: [Column] = []
        for (i, f) in fields.enumerated() {
            var c = Column.from(values: values[i], type: f.type, name: f.name, unit: f.unit)
            if orderedText.contains(f.name), case .string(var s) = c.storage {
                // Keep first-seen order (the file's order) for text like line names.
                s.ordered = true
                c.storage = .string(s)
            }
            columns.append(c)
        }
        return Table(name: name, columns: columns, zone: zone, rowNoun: rowNoun)
    }
}
