extension Session {
    static let settingNames = ["output", "timezone", "time", "width", "height", "timer", "maxrows", "charset", "color", "csv-safe", "memory-limit"]

    func set(_ name: String, _ value: String, _ span: SourceSpan, into outcome: inout CommandOutcome) throws {
        func flag() throws -> Bool {
            switch value.lowercased() {
            case "on", "true", "yes", "1": return true
            case "off", "false", "no", "0": return false
            default: throw Diagnostic("\(name) is on or off, not \"\(value)\"", at: span)
            }
        }
        func number(_ range: ClosedRange<Int>) throws -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw Diagnostic("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound)", at: span)
            }
            return n
        }
        switch name {
        case "output", "format":
            guard let f = OutputFormat.named(value) else {
                throw Diagnostic("unknown output \"\(value)\"" + Suggest.didYouMean(value, among: OutputFormat.allCases.map(\.rawValue)), at: span,
                                 hint: "choose one of: " + OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))
            }
            settings.output = f
        case "timezone", "tz", "zone":
            guard let zone = ZoneRules.named(value) else {
                let guess = Suggest.didYouMean(value, among: TimeZoneNames.all)
                throw Diagnostic("unknown time zone \"\(value)\"" + guess, at: span, hint: guess.isEmpty ? "use a name such as Europe/Oslo, UTC or +01:00" : nil)
            }
            guard let name = currentTable, var t = catalog[name] else {
                defaultZone = zone
                outcome.outputs.append(.info("times without an offset will be read in \(zone.identifier)"))
                return
            }
            let old = t.zone
            // Times written without an offset keep their wall-clock reading.
            for i in t.columns.indices where t.columns[i].floating {
                if case .timestamp(let a) = t.columns[i].storage {
                    t.columns[i].storage = .timestamp(a.map { zone.instant(wallMicros: old.wallMicros($0)) })
                }
            }
            t.zone = zone
            replaceTable(t)
            outcome.outputs.append(.info("\(t.name): times in \(zone.identifier)"))
        case "time":
            guard let name = currentTable, var t = catalog[name] else {
                throw Diagnostic("load a table before choosing its time column", at: span)
            }
            guard let c = t.column(value) else {
                throw Diagnostic("unknown column \"\(value)\"" + Suggest.didYouMean(value, among: t.columnNames), at: span)
            }
            guard c.type == .timestamp || c.type == .duration else {
                throw Diagnostic("\(c.name) is \(c.type.displayName), not a time", at: span,
                                 hint: "the time column must hold timestamps (or durations)")
            }
            t.timeColumn = c.name
            replaceTable(t)
            outcome.outputs.append(.info("\(t.name): time buckets now read \(c.name)"))
        case "width":
            settings.render.width = try number(20...1000)
        case "height", "lines":
            settings.render.height = try number(5...1000)
        case "maxrows":
            settings.render.maxRows = try number(4...10_000_000)
        case "timer":
            settings.timer = try flag()
        case "color", "colour":
            settings.render.color = try flag()
        case "csv-safe", "csvsafe":
            settings.csvSafe = try flag()
        case "memory-limit", "memorylimit":
            if ["off", "auto", "free"].contains(value.lowercased()) {
                settings.memoryLimit = nil
                outcome.outputs.append(.info("loads may take the memory that is free"))
                return
            }
            guard let bytes = MemoryBudget.parseSize(value) else {
                throw Diagnostic("memory-limit is a size such as 500MB or 2GB, or auto", at: span)
            }
            settings.memoryLimit = bytes
            outcome.outputs.append(.info("loads may take up to \(MemoryBudget.describe(bytes))"))
        case "charset":
            guard let c = RenderOptions.Charset(rawValue: value.lowercased()) else {
                throw Diagnostic("charset is unicode or ascii", at: span)
            }
            settings.render.charset = c
        default:
            throw Diagnostic("unknown setting \"\(name)\"" + Suggest.didYouMean(name, among: Session.settingNames), at: span,
                             hint: "settings: " + Session.settingNames.joined(separator: ", "))
        }
    }
}

/// Zone names for suggestions.
enum TimeZoneNames {
    static let all: [String] = {
        #if canImport(Foundation)
        return Foundation.TimeZone.knownTimeZoneIdentifiers
        #else
        return []
        #endif
    }()
}

import Foundation
