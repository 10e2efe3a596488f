/// How `travel times …` is written: `from` first, then its options in any order, each once.
extension TravelTimesVerb {
    static func parse(_ p: inout Parser, _ verb: Token) throws -> any VerbSyntax {
        guard p.eatKeyword("times") else {
            throw Diagnostic("expected times after travel, as in: travel times from STOP at \"08:00\"", at: p.current.span)
        }
        guard p.eatKeyword("from") else {
            throw Diagnostic("expected from and the stops to leave from, as in: travel times from STAGECOACH at \"08:00\"", at: p.current.span)
        }
        var origins = [try stopWord(&p)]
        while p.eatSymbol(.comma) { origins.append(try stopWord(&p)) }
        var s = Syntax(origins: origins, leave: ("", verb.span), span: verb.span)
        var seen = Set<String>(), leaveSeen = false
        while !p.atEnd && !p.current.isSymbol(.pipe) {
            let word = p.current.identifier?.lowercased() ?? ""
            let at = p.current.span
            guard ["at", "between", "on", "until", "within", "transfer", "walk"].contains(word) else {
                throw Diagnostic("expected at, between, on, until, within, transfer or walk, found \(p.current.describe)", at: at)
            }
            guard seen.insert(word == "between" ? "at" : word == "within" ? "until" : word).inserted else {
                throw Diagnostic(word == "between" || word == "at" ? "a journey leaves once: at a time, or between two"
                                 : word == "until" || word == "within" ? "one limit: until a time, or within a duration" : "\(word) is written twice", at: at)
            }
            p.advance()
            switch word {
            case "at":
                s.leave = (try HeadwaysVerb.clock(&p), at); leaveSeen = true
            case "between":
                s.leave = (try HeadwaysVerb.clock(&p), at); leaveSeen = true
                guard p.eatKeyword("and") else {
                    throw Diagnostic("expected and between the two times, as in: between \"08:00\" and \"09:00\"", at: p.current.span)
                }
                let end = p.current.span
                s.leaveUntil = try HeadwaysVerb.clock(&p)
                if Self.seconds(s.leaveUntil!) < Self.seconds(s.leave.0) {
                    throw Diagnostic("the window ends before it starts", at: end, hint: "write the earlier time first: between \"\(s.leaveUntil!)\" and \"\(s.leave.0)\"")
                }
            case "on":
                s.day = try ServiceDay.parse(&p)
            case "until":
                s.until = try HeadwaysVerb.clock(&p)
            case "within":
                s.within = try duration(&p, "within", example: "within 45m")
            case "transfer":
                s.transfer = try duration(&p, "transfer", example: "transfer 2m")
            default:
                s.walkMetres = try metres(&p)
            }
        }
        guard leaveSeen else {
            throw Diagnostic("travel times needs a time to leave", at: p.current.span, hint: "add at \"08:00\", or between \"08:00\" and \"09:00\"")
        }
        if let until = s.until, seconds(until) < seconds(s.leave.0) {
            throw Diagnostic("until \"\(until)\" comes before the time to leave, \"\(s.leave.0)\"", at: s.leave.1,
                             hint: "a time after midnight of the same service day is written past 24:00, as \"25:30\"")
        }
        return s
    }

    static func seconds(_ clock: String) -> Int {
        let parts = clock.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
    }

    /// A stop as written: a stop_id (letters, digits and marks up to a space or comma) or a
    /// name in quotes.
    static func stopWord(_ p: inout Parser) throws -> (String, SourceSpan) {
        let t = p.current
        if case .string(let s) = t.kind { p.advance(); return (s, t.span) }
        guard !p.atEnd, !t.isSymbol(.pipe), !t.isSymbol(.comma) else {
            throw Diagnostic("expected a stop, found \(t.describe)", at: t.span, hint: "write its stop_id, or its stop_name in quotes")
        }
        var end = t.span.end
        p.advance()
        while !p.atEnd, !p.current.spaceBefore, !p.current.isSymbol(.pipe), !p.current.isSymbol(.comma) {
            end = p.current.span.end
            p.advance()
        }
        let span = SourceSpan(t.span.start, end)
        return (p.source.slice(span), span)
    }

    static func duration(_ p: inout Parser, _ word: String, example: String) throws -> Int64 {
        try p.refuseTooLong()
        guard case .duration(let micros) = p.current.kind, micros >= 0 else {
            throw Diagnostic("expected a duration after \(word), found \(p.current.describe)", at: p.current.span, hint: "as in: \(example)")
        }
        p.advance()
        return micros
    }

    /// `300 m`, `0.5 km`: 300m alone is a duration (300 minutes), so the unit stands apart.
    static func metres(_ p: inout Parser) throws -> Double {
        let t = p.current
        var value: Double
        switch t.kind {
        case .integer(let n): value = Double(n)
        case .number(let x): value = x
        case .duration:
            throw Diagnostic("walk takes a distance, and this is a duration", at: t.span, hint: "write the unit apart: walk 300 m")
        default:
            throw Diagnostic("expected a distance after walk, found \(t.describe)", at: t.span, hint: "as in: walk 300 m")
        }
        p.advance()
        let unit = p.current.identifier?.lowercased() ?? ""
        switch unit {
        case "m", "metres", "meters": break
        case "km": value *= 1000
        default: throw Diagnostic("expected m or km after the distance, found \(p.current.describe)", at: p.current.span, hint: "as in: walk 300 m")
        }
        p.advance()
        guard value.isFinite, value >= 0, value <= 10_000 else {
            throw Diagnostic("walks between stops go up to 10 km", at: t.span, hint: "as in: walk 300 m")
        }
        return value
    }
}
