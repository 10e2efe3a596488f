/// Plans written in utq's own words. A verb whose work is other verbs (`service on`,
/// `headways on`) builds its plan from lines a user could type, so `explain` shows ordinary
/// steps, every backend that runs those steps runs it, and the verb's help can show the lines.
struct PlanText {
    let binder: Binder
    /// The verb the text is for: a step that cannot be bound is its error.
    let verb: String

    /// A pipeline from a table: `feed.calendar | where … | select …`.
    func pipeline(_ text: String) throws -> LogicalPlan {
        try explained(text) {
            let p = try parse(text)
            var plan = try binder.source(p.source)
            for stage in p.stages { plan = try binder.bind(stage, input: plan) }
            return plan
        }
    }

    /// Stages on rows already planned: `where … | select …`.
    func stages(_ text: String, on input: LogicalPlan) throws -> LogicalPlan {
        try explained(text) {
            var plan = input
            for stage in try parse(text).stages { plan = try binder.bind(stage, input: plan) }
            return plan
        }
    }

    /// `join` with rows already planned: `on` is the condition as `join` takes it.
    func join(_ left: LogicalPlan, _ right: LogicalPlan, named: String, _ kind: JoinKind = .inner, on condition: String) throws -> LogicalPlan {
        try explained(condition) {
            let source = SourceText(name: "<\(verb)>", text: condition)
            var parser = Parser(source: source, tokens: try Lexer.tokenize(source))
            return try JoinBinder(binder: binder).bind(left, right, named: named, kind, [try parser.parseExpr()])
        }
    }

    private func parse(_ text: String) throws -> Pipeline {
        let source = SourceText(name: "<\(verb)>", text: text)
        var parser = Parser(source: source, tokens: try Lexer.tokenize(source))
        return try parser.parsePipeline()
    }

    /// A step that fails names the verb and the step, not a place in text the user never wrote.
    private func explained<T>(_ text: String, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch var d as Diagnostic {
            d.message = "\(verb) could not do `\(text)`: \(d.message)"
            d.kind = .message
            d.span = nil
            d.source = nil
            d.usage = nil
            throw d
        }
    }
}
