/// The Norwegian road database's search response: `resultater[].vegobjekter[]`, each road
/// object with its properties as a name/value list (`egenskaper`) and the road links it sits on
/// (`veglenker` with `fra`/`til` as fractions of the link). One row per object and link, one
/// column per property name, so `where veglenke = L and p between fra and til` finds what
/// applies at position p of link L.
public enum NVDB {
    public static func isResponse(_ doc: JSONValue) -> Bool {
        if let results = doc["resultater"]?.array, results.contains(where: { $0["vegobjekter"]?.array != nil }) { return true }
        if let objects = doc["objekter"]?.array ?? doc["vegobjekter"]?.array, objects.contains(where: { $0["egenskaper"] != nil }) { return true }
        return false
    }

    public static func load(_ doc: JSONValue, name: String, path: String) throws -> ([Table], [LoadWarning]) {
        var warnings = WarningLog(path: path)
        var objects: [JSONValue] = []
        for result in doc["resultater"]?.array ?? [] { objects += result["vegobjekter"]?.array ?? [] }
        objects += doc["objekter"]?.array ?? doc["vegobjekter"]?.array ?? []
        guard !objects.isEmpty else { throw LoadError(path: path, "the response has no road objects (resultater[].vegobjekter[] is empty)") }

        // Property names in the order first met, and each row's values.
        var propertyNames: [String] = []
        var rows: [(object: JSONValue, properties: [String: JSONValue], link: JSONValue?)] = []
        for (k, object) in objects.enumerated() {
            var properties: [String: JSONValue] = [:]
            for e in object["egenskaper"]?.array ?? [] {
                guard let n = e["navn"]?.string else { continue }
                if !propertyNames.contains(n) { propertyNames.append(n) }
                if properties[n] == nil { properties[n] = e["verdi"] ?? .null }
            }
            let links = object["veglenker"]?.array ?? object["lokasjon"]?["veglenker"]?.array ?? object["lokasjon"]?["stedfestinger"]?.array ?? []
            if links.isEmpty {
                warnings.add("link", line: nil, "object \(object["objektid"]?.int ?? object["id"]?.int ?? k + 1) has no road links")
                rows.append((object, properties, nil))
            }
            for link in links { rows.append((object, properties, link)) }
        }
        let fixed: [(String, DataType)] = [("objektid", .int), ("typeid", .int), ("type", .string), ("strekningslengde", .double)]
        let linkFields: [(String, DataType)] = [("veglenke", .int), ("fra", .double), ("til", .double), ("direction", .string)]
        let propertyTypes = propertyNames.map { n in inferType(rows.compactMap { $0.properties[n] }) }
        // A property named like a fixed column keeps a prefix so nothing is hidden.
        let taken = Set((fixed + linkFields).map { $0.0.lowercased() })
        let propertyColumns = propertyNames.map { taken.contains($0.lowercased()) ? "egenskap.\($0)" : $0 }
        var table = RowTable(name: name, fixed + zip(propertyColumns, propertyTypes).map { ($0, $1) } + linkFields)
        for row in rows {
            var values: [Value] = [
                row.object["objektid"]?.int.map { .int(Int64($0)) } ?? row.object["id"]?.int.map { .int(Int64($0)) } ?? .null,
                (row.object["objekttypeid"] ?? row.object["metadata"]?["type"]?["id"])?.int.map { .int(Int64($0)) } ?? .null,
                (row.object["objekttypenavn"] ?? row.object["metadata"]?["type"]?["navn"])?.string.map { .string($0) } ?? .null,
                row.object["strekningslengde"]?.double.map { .double($0) } ?? .null,
            ]
            for (i, n) in propertyNames.enumerated() { values.append(convert(row.properties[n], to: propertyTypes[i])) }
            let link = row.link
            values += [
                (link?["id"] ?? link?["veglenkesekvensid"])?.int.map { .int(Int64($0)) } ?? .null,
                (link?["fra"] ?? link?["startposisjon"])?.double.map { .double($0) } ?? .null,
                (link?["til"] ?? link?["sluttposisjon"])?.double.map { .double($0) } ?? .null,
                (link?["direction"] ?? link?["retning"])?.string.map { .string($0) } ?? .null,
            ]
            table.append(values)
        }
        return ([table.table(zone: ZoneRules.named("Europe/Oslo") ?? .utc, rowNoun: "road objects")], warnings.finish())
    }

    /// Properties are numbers when every value reads as one ("100" is a speed limit of 100).
    static func inferType(_ values: [JSONValue]) -> DataType {
        let present = values.filter { !$0.isNull }
        if present.isEmpty { return .string }
        // A whole number past 64 bits is no whole number utq holds: such a column is numbers.
        if present.allSatisfy({ v in
            if case .integer = v { return true }
            if let s = v.string { return NumberParser.int(s) != nil }
            return false
        }) { return .int }
        if present.allSatisfy({ $0.double != nil }) { return .double }
        return .string
    }

    static func convert(_ v: JSONValue?, to type: DataType) -> Value {
        guard let v, !v.isNull else { return .null }
        switch type {
        case .int:
            if case .integer(let i) = v { return .int(i) }
            return v.string.flatMap(NumberParser.int).map { .int($0) } ?? .null
        case .double: return v.double.map { .double($0) } ?? .null
        default: return .string(v.string ?? v.text)
        }
    }
}
