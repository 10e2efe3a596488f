/// A column as the plan sees it: name, type and how it is shown.
public struct Field: Sendable, Equatable {
    public var name: String
    public var type: DataType
    public var unit: DisplayUnit
    /// For text: values have a declared order (weekdays, legends) rather than alphabetical.
    public var ordered: Bool
    /// For timestamps read without an offset: they mean wall-clock times, so a change of
    /// the table's zone keeps the wall time rather than the instant.
    public var floating: Bool
    /// For geometries: lng/lat or a plane, which says what distances and areas mean.
    public var space: GeoSpace

    public init(name: String, type: DataType, unit: DisplayUnit = .automatic, ordered: Bool = false, floating: Bool = false,
                space: GeoSpace = .lnglat) {
        self.name = name; self.type = type; self.unit = unit; self.ordered = ordered; self.floating = floating; self.space = space
    }

    public init(_ c: Column) {
        var ordered = false
        var space = GeoSpace.lnglat
        if case .string(let s) = c.storage { ordered = s.ordered }
        if case .geometry(let g) = c.storage { space = g.space }
        self.init(name: c.name, type: c.type, unit: c.unit, ordered: ordered, floating: c.floating, space: space)
    }
}

/// The columns a plan node produces, with the time zone and time column they carry, and
/// which columns are the keys of a summary (so a chart knows what names the bars).
public struct Schema: Sendable {
    public var fields: [Field]
    public var zone: ZoneRules
    public var timeColumn: String?
    /// The key columns when the rows are a summary's (`count by legend, hour`), kept through
    /// where, sort, limit, fill and the columns `let` and `select` keep; nil otherwise.
    public var groupKeys: [String]?
    /// The columns the rows are in ascending order of, when that is a summary's key order:
    /// set by the summary and kept by the steps that keep its rows in their order (where,
    /// limit, let, select). A database gives groups in any order, so they are put in this one
    /// when they come back, and its sorts break ties by it as utq's stable sort does.
    public var keyOrder: [String]?

    public init(fields: [Field], zone: ZoneRules, timeColumn: String?, groupKeys: [String]? = nil, keyOrder: [String]? = nil) {
        self.fields = fields; self.zone = zone; self.timeColumn = timeColumn; self.groupKeys = groupKeys; self.keyOrder = keyOrder
    }

    init(_ t: Table) {
        self.init(fields: t.columns.map(Field.init), zone: t.zone, timeColumn: t.timeColumn, groupKeys: t.groupKeys)
    }

    public var names: [String] { fields.map(\.name) }

    /// The unit the time span is best written in, as `Table.timeSpanUnit` gives it.
    var timeSpanUnit: DisplayUnit {
        timeColumn.flatMap(index(of:)).map { fields[$0].unit } == .day ? .day : .minute
    }

    public func index(of name: String) -> Int? {
        if let i = fields.firstIndex(where: { $0.name == name }) { return i }
        let lower = name.lowercased()
        return fields.firstIndex(where: { $0.name.lowercased() == lower })
    }

    /// Every column as it is, for a projection that keeps them and adds or changes some.
    func passThrough() -> [NamedExpr] {
        fields.enumerated().map { NamedExpr(name: $1.name, expr: .column($0, $1)) }
    }

    /// The columns of `describe`.
    static func describe(zone: ZoneRules) -> Schema {
        Schema(fields: [
            Field(name: "column", type: .string), Field(name: "type", type: .string),
            Field(name: "values", type: .int), Field(name: "nulls", type: .int), Field(name: "distinct", type: .int),
            Field(name: "min", type: .string), Field(name: "max", type: .string),
        ], zone: zone, timeColumn: nil)
    }

    /// The columns of `tables`.
    static let tables = Schema(fields: [
        Field(name: "table", type: .string), Field(name: "rows", type: .int), Field(name: "columns", type: .int),
        Field(name: "time span", type: .string), Field(name: "zone", type: .string), Field(name: "current", type: .string),
    ], zone: .utc, timeColumn: nil)
}
