extension Session {
    /// The current table's entry in the catalog.
    var currentEntry: CatalogEntry? { workspace.currentTable.flatMap { workspace.catalog[$0] } }

    /// `set timezone ZONE`: the current table's zone, or the zone of later loads when no
    /// table is loaded. Times written without an offset keep their wall-clock reading.
    func setZone(_ value: String, span: SourceSpan) throws -> String {
        guard let zone = ZoneRules.named(value) else {
            let guess = Suggest.didYouMean(value, among: TimeZoneNames.all)
            throw Diagnostic("unknown time zone \"\(value)\"" + guess, at: span, hint: guess.isEmpty ? "use a name such as Europe/Oslo, UTC or +01:00" : nil)
        }
        switch currentEntry {
        case nil:
            defaultZone = zone
            return "times without an offset will be read in \(zone.identifier)"
        case .remote(var r)?:
            // The database keeps its instants; its times are shown, and bucketed, in the zone.
            r.schema.zone = zone
            workspace.put([.remote(r)], makeCurrent: false)
            return "\(r.name): times in \(zone.identifier)"
        case .loaded(var t)?:
            let old = t.zone
            for i in t.columns.indices where t.columns[i].floating {
                if case .timestamp(let a) = t.columns[i].storage {
                    t.columns[i].storage = .timestamp(a.map { zone.instant(wallMicros: old.wallMicros($0)) })
                }
            }
            t.zone = zone
            workspace.put([t], makeCurrent: false)
            return "\(t.name): times in \(zone.identifier)"
        case .deferred(let d)?:
            let t = try d.inZone(zone, cancel: cancel)
            workspace.put([.deferred(t)], makeCurrent: false)
            return "\(t.name): times in \(zone.identifier)"
        }
    }

    /// `set time COLUMN`: the column time buckets read.
    func setTimeColumn(_ value: String, span: SourceSpan) throws -> String {
        guard let entry = currentEntry else {
            throw Diagnostic("load a table before choosing its time column", at: span)
        }
        let schema = entry.schema
        guard let i = schema.index(of: value) else {
            throw Diagnostic(.unknownColumn(value, suggestion: Suggest.closest(value, among: schema.names), columns: schema.names), at: span)
        }
        let c = schema.fields[i]
        guard c.type == .timestamp || c.type == .duration else {
            throw Diagnostic("\(c.name) is \(c.type.displayName), not a time", at: span,
                             hint: "the time column must hold timestamps (or durations)")
        }
        switch entry {
        case .loaded(var t): t.timeColumn = c.name; workspace.put([t], makeCurrent: false)
        case .remote(var r): r.schema.timeColumn = c.name; workspace.put([.remote(r)], makeCurrent: false)
        case .deferred(let d): workspace.put([.deferred(try d.withTimeColumn(c.name, cancel: cancel))], makeCurrent: false)
        }
        return "\(entry.name): time buckets now read \(c.name)"
    }
}
