/// How `join TABLE` says to match rows by where they are: `on within`, `on contains`, `on
/// intersects`, `within 400 m`, `nearest [K] [within 2 km]`. Distances keep the unit written;
/// the binder reads them in the positions' space (metres in lng/lat, a plan's own units).
struct SpatialJoinSyntax: Sendable {
    enum Unit: String, Sendable { case metres = "m", kilometres = "km", none = "" }

    var test: SpatialJoinNode.Test
    var unit: Unit
    var span: SourceSpan

    var syntax: String {
        let u = unit == .none ? "" : " " + unit.rawValue
        switch test {
        case .within, .contains, .intersects: return "on \(test.describe(.plane))"
        case .near(let d): return "within \(NumberText.double(d))\(u)"
        case .nearest(let k, let d): return "nearest \(k)" + (d.map { " within \(NumberText.double($0))\(u)" } ?? "")
        }
    }

    /// The clause after the table, if the words there are one; nil leaves `on …` to the
    /// other joins.
    static func parse(_ p: inout Parser) throws -> SpatialJoinSyntax? {
        let start = p.current.span
        if p.current.isKeyword("on") {
            let word = p.peek()
            let kinds: [String: SpatialJoinNode.Test] = ["within": .within, "contains": .contains, "intersects": .intersects]
            guard case .identifier(let w, false) = word.kind, let test = kinds[w.lowercased()] else { return nil }
            // `on within(a, b)` is a condition, bound as one.
            if p.peek(2).isSymbol(.lparen) { return nil }
            p.advance(); p.advance()
            return SpatialJoinSyntax(test: test, unit: .none, span: start.union(word.span))
        }
        if p.eatKeyword("within") {
            let (d, unit, end) = try distance(&p)
            return SpatialJoinSyntax(test: .near(d), unit: unit, span: start.union(end))
        }
        if p.eatKeyword("nearest") {
            var k = 1
            var end = start
            if case .integer(let n) = p.current.kind {
                guard n >= 1, n <= 1000 else { throw Diagnostic("nearest takes 1 to 1,000 rows", at: p.current.span) }
                k = Int(n)
                end = p.advance().span
            }
            var limit: Double? = nil, unit = Unit.none
            if p.eatKeyword("within") {
                let (d, u, e) = try distance(&p)
                (limit, unit, end) = (d, u, e)
            }
            return SpatialJoinSyntax(test: .nearest(k, limit), unit: unit, span: start.union(end))
        }
        return nil
    }

    /// `400 m`, `400m`, `0.4 km`, `50` (a plan's units).
    static func distance(_ p: inout Parser) throws -> (Double, Unit, SourceSpan) {
        let t = p.current
        let example = "as in: within 400 m, or within 1.5 km"
        var value: Double
        var unit = Unit.none
        switch t.kind {
        case .integer(let n): value = Double(n)
        case .number(let d): value = d
        case .duration:
            // `400m` reads as minutes elsewhere; after within it is metres.
            let text = p.source.slice(t.span)
            let digits = text.prefix { $0.isNumber || $0 == "." }
            guard let v = Double(digits), text.dropFirst(digits.count).lowercased() == "m" else {
                throw Diagnostic("\(text) is a time; a distance is in metres or kilometres", at: t.span, hint: example)
            }
            value = v
            unit = .metres
        default:
            throw Diagnostic("expected a distance after within, found \(t.describe)", at: t.span, hint: example)
        }
        var end = p.advance().span
        if unit == .none, case .identifier(let w, false) = p.current.kind {
            switch w.lowercased() {
            case "m", "metre", "metres", "meter", "meters": unit = .metres; end = p.advance().span
            case "km", "kilometre", "kilometres", "kilometer", "kilometers": unit = .kilometres; end = p.advance().span
            case "mi", "mile", "miles", "ft", "feet", "yd", "yards":
                throw Diagnostic("distances are written in metres or kilometres", at: p.current.span, hint: example)
            default: break
            }
        }
        guard value.isFinite, value >= 0 else { throw Diagnostic("a distance is 0 or more", at: t.span, hint: example) }
        return (value, unit, t.span.union(end))
    }

    /// The distance in the positions' space: metres for lng/lat, the plan's units on a plane.
    func reach(in space: GeoSpace) throws -> SpatialJoinNode.Test {
        func convert(_ d: Double) throws -> Double {
            switch (space, unit) {
            case (.lnglat, .kilometres): return d * 1000
            case (.lnglat, _): return d
            case (.plane, .none): return d
            case (.plane, _):
                throw Diagnostic("these positions are x and y on a plan, whose distances are in its own units, not \(unit == .metres ? "metres" : "kilometres")",
                                 at: span, hint: "write the distance alone, as in: within 50")
            }
        }
        switch test {
        case .near(let d): return .near(try convert(d))
        case .nearest(let k, let d): return .nearest(k, try d.map(convert))
        default: return test
        }
    }
}
