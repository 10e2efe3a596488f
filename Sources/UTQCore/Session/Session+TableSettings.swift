extension Session {
    /// `set timezone ZONE`: the current table's zone, or the zone of later loads when no
    /// table is loaded. Times written without an offset keep their wall-clock reading.
    func setZone(_ value: String, span: SourceSpan) throws -> String {
        guard let zone = ZoneRules.named(value) else {
            let guess = Suggest.didYouMean(value, among: TimeZoneNames.all)
            throw Diagnostic("unknown time zone \"\(value)\"" + guess, at: span, hint: guess.isEmpty ? "use a name such as Europe/Oslo, UTC or +01:00" : nil)
        }
        guard let name = workspace.currentTable, var t = workspace.catalog[name] else {
            defaultZone = zone
            return "times without an offset will be read in \(zone.identifier)"
        }
        let old = t.zone
        for i in t.columns.indices where t.columns[i].floating {
            if case .timestamp(let a) = t.columns[i].storage {
                t.columns[i].storage = .timestamp(a.map { zone.instant(wallMicros: old.wallMicros($0)) })
            }
        }
        t.zone = zone
        workspace.put([t], makeCurrent: false)
        return "\(t.name): times in \(zone.identifier)"
    }

    /// `set time COLUMN`: the column time buckets read.
    func setTimeColumn(_ value: String, span: SourceSpan) throws -> String {
        guard let name = workspace.currentTable, var t = workspace.catalog[name] else {
            throw Diagnostic("load a table before choosing its time column", at: span)
        }
        guard let c = t.column(value) else {
            throw Diagnostic(.unknownColumn(value, suggestion: Suggest.closest(value, among: t.columnNames), columns: t.columnNames), at: span)
        }
        guard c.type == .timestamp || c.type == .duration else {
            throw Diagnostic("\(c.name) is \(c.type.displayName), not a time", at: span,
                             hint: "the time column must hold timestamps (or durations)")
        }
        t.timeColumn = c.name
        workspace.put([t], makeCurrent: false)
        return "\(t.name): time buckets now read \(c.name)"
    }
}
