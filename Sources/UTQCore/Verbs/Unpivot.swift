/// `unpivot COL, … as NAME, VALUE`: columns into rows.
enum UnpivotVerb {
    static let spec = VerbSpec(
        name: "unpivot", category: .columns,
        usage: "unpivot COL, … as NAME, VALUE",
        summary: "Turn columns into rows: one row per row and column, the column's name in NAME and its value in VALUE.",
        details: """
        The table wide to long: a Public Life Data Protocol file with a column per posture
        (Standing, Sitting, Lying) becomes one row per posture. The other columns repeat on
        each row. The columns must hold one kind of value (whole numbers and numbers mix).
        """,
        examples: ["count by legend, hour | pivot hour | unpivot 8, 12, 16 as hour, entries | limit 4"],
        keywords: ["as"],
        parse: { p, _ in
            var columns: [(String, SourceSpan)] = []
            repeat {
                // Column names such as 8 (made by pivot) are written as they read.
                let t = p.current
                if case .integer(let m) = t.kind { p.advance(); columns.append((String(m), t.span)) }
                else { columns.append(try p.name("a column to turn into rows")) }
            } while p.eatSymbol(.comma)
            guard p.eatKeyword("as") else {
                throw Diagnostic("expected as and two names, as in: unpivot Standing, Sitting as posture, people", at: p.current.span)
            }
            let name = try p.name("a name for the column of names").0
            try p.expectSymbol(.comma, "',' and a name for the column of values")
            let value = try p.name("a name for the column of values").0
            return Syntax(columns: columns, nameColumn: name, valueColumn: value)
        })

    struct Syntax: StageSyntax {
        var columns: [(String, SourceSpan)]
        var nameColumn: String
        var valueColumn: String

        var syntax: String { columns.map(\.0).joined(separator: ", ") + " as \(nameColumn), \(valueColumn)" }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            let schema = input.schema
            let exprs = binder.expressions(input)
            var picked: [Int] = []
            for (c, span) in columns {
                guard let i = schema.index(of: c) else { throw exprs.unknownColumn(c, span) }
                if !picked.contains(i) { picked.append(i) }
            }
            var type = DataType.null
            var unit = DisplayUnit.automatic
            for i in picked {
                let f = schema.fields[i]
                if f.type == .null || f.type == type { continue }
                if type == .null { type = f.type; unit = f.unit; continue }
                if type.isNumeric && f.type.isNumeric { type = .double; continue }
                let first = picked.first { schema.fields[$0].type == type }.map { schema.fields[$0].name } ?? ""
                throw Diagnostic("unpivot needs columns of one kind: \(first) is \(type.displayName) and \(f.name) is \(f.type.displayName)",
                                 at: columns[picked.firstIndex(of: i)!].1, hint: "convert one first, as in: let \(f.name) = text(\(f.name))")
            }
            let kept = schema.fields.indices.filter { !picked.contains($0) }
            // A name means one column: the two new ones need names of their own.
            if nameColumn.lowercased() == valueColumn.lowercased() {
                throw Diagnostic("unpivot's two new columns need two names, not \(nameColumn) twice", hint: "as in: unpivot A, B as kind, value")
            }
            for new in [nameColumn, valueColumn] where kept.contains(where: { schema.fields[$0].name.lowercased() == new.lowercased() }) {
                throw Diagnostic("there is a column called \(new) already", hint: "name the new column otherwise, as in: unpivot … as \(new)_2, …")
            }
            let fields = kept.map { schema.fields[$0] } + [Field(name: nameColumn, type: .string, ordered: true), Field(name: valueColumn, type: type, unit: unit)]
            let time = schema.timeColumn.flatMap { t in kept.contains { schema.fields[$0].name == t } ? t : nil }
            return LogicalPlan(UnpivotNode(input, columns: picked, kept: kept, schema: Schema(fields: fields, zone: schema.zone, timeColumn: time)))
        }
    }
}
