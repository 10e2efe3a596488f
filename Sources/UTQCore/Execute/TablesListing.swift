/// `tables`: the loaded tables as rows.
enum TablesListing {
    static func table(_ catalog: Catalog, current: String?) -> Table {
        let names = catalog.names
        var rows: [Int64] = [], cols: [Int64] = [], spans: [String] = [], zones: [String] = []
        // A database's tables are not counted (that would read them): their rows are null.
        var counted = Bitmap()
        for n in names {
            switch catalog[n]! {
            case .loaded(let t):
                rows.append(Int64(t.rowCount))
                counted.append(true)
                cols.append(Int64(t.columns.count))
                if let (lo, hi) = t.timeRange() {
                    let unit = t.timeSpanUnit
                    spans.append(TimeText.display(lo, zone: t.zone, unit: unit) + " → " + TimeText.display(hi, zone: t.zone, unit: unit))
                } else { spans.append("") }
                zones.append(t.zone.identifier)
            case .deferred(let d):
                // Known from the file's footer: listing reads no column.
                rows.append(Int64(d.rowCount))
                counted.append(true)
                cols.append(Int64(d.schema.fields.count))
                if let (lo, hi) = d.timeRange {
                    let unit = d.schema.timeSpanUnit
                    spans.append(TimeText.display(lo, zone: d.schema.zone, unit: unit) + " → " + TimeText.display(hi, zone: d.schema.zone, unit: unit))
                } else { spans.append("") }
                zones.append(d.schema.zone.identifier)
            case .remote(let r):
                rows.append(0)
                counted.append(false)
                cols.append(Int64(r.schema.fields.count))
                spans.append("in database \(r.database)")
                zones.append(r.schema.zone.identifier)
            }
        }
        let marks = names.map { $0 == current ? "*" : "" }
        return Table(name: "tables", columns: [
            Describe.textColumn("table", names, emptyIsNull: false),
            Column(name: "rows", storage: .int(rows), validity: counted),
            Column(name: "columns", storage: .int(cols)),
            Describe.textColumn("time span", spans),
            Describe.textColumn("zone", zones, emptyIsNull: false),
            Describe.textColumn("current", marks),
        ], zone: .utc)
    }
}
