import Foundation

extension Session {
    /// Draws the rows a pipeline gives as a chart, for the terminal or into a file.
    func chart(_ request: ChartRequest, input plan: LogicalPlan, into outcome: inout CommandOutcome) throws {
        let table = try Executor(catalog: catalog, cancel: cancel).run(plan)
        let chart = try ChartBuilder.build(request, table: table, keyColumns: groupKeys(of: plan), render: settings.render)
        guard let file = request.file else {
            // The rows drawn are a result like any other: `$n | chart line` draws them again.
            let n = keep(table)
            summaryKeys["$\(n)"] = groupKeys(of: plan)
            outcome.outputs.append(.chart(ChartOutput(chart: chart, text: chart.text(settings.render), number: n, rows: table.rowCount)))
            return
        }
        let span = request.fileSpan ?? request.span
        let bytes: [UInt8]
        let lower = file.lowercased()
        if lower.hasSuffix(".svg") {
            bytes = Array(chart.svg().utf8)
        } else if lower.hasSuffix(".txt") {
            // A file is read later, elsewhere: no terminal colours in it.
            var render = settings.render
            render.color = false
            bytes = Array(chart.text(render).utf8)
        } else {
            throw Diagnostic("cannot tell what to write to \(file) from its name", at: span,
                             hint: "end it with .svg (a picture) or .txt (the drawing as it prints)")
        }
        do {
            try AtomicFile.write(bytes, to: resolve(file, relativeTo: nil), replace: request.replace || settings.replaceFiles)
        } catch let e as AtomicFile.Failure {
            throw Diagnostic(e.message(file), at: span, hint: e.exists ? "write to! \(file) to replace it" : nil)
        }
        outcome.outputs.append(.info("wrote chart \(request.kind.rawValue) to \(file)"))
    }

    /// The group keys of a summary, read from its plan: `count by legend, hour` keeps them
    /// through sort, top, where and fill, and a kept result or named table remembers them.
    /// Nil when the rows are not a summary's.
    func groupKeys(of plan: LogicalPlan) -> [String]? {
        switch plan {
        case .aggregate(_, let keys, _, let schema):
            return Array(schema.names.prefix(keys.count))
        case .sort(let p, _), .limit(let p, _, _), .filter(let p, _), .fill(let p, _, _, _):
            return groupKeys(of: p)
        case .values(_, let label):
            return summaryKeys[label]
        case .scan(let table, _):
            return summaryKeys[table]
        default:
            return nil
        }
    }
}
