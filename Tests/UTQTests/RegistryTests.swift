import Foundation
import Testing
@testable import UTQCore

/// One registry each for verbs, settings, session commands and help topics feeds the
/// parser, `help`, completion and docs/language.md; these tests hold them to it.
@Suite struct RegistryTests {
    static let record = ProcessInfo.processInfo.environment["UTQ_RECORD"] == "1"

    func docs() throws -> String { try String(contentsOfFile: Repo.path("docs/language.md"), encoding: .utf8) }

    @Test func theReferenceTablesOfTheDocsAreTheRegistries() throws {
        let text = try docs()
        let updated = ReferenceDocs.update(text)
        for (name, _) in ReferenceDocs.sections {
            #expect(text.contains("<!-- utq:\(name) -->\n") && text.contains("<!-- /utq:\(name) -->"), "docs/language.md has no \(name) section")
        }
        if Self.record {
            try updated.write(toFile: Repo.path("docs/language.md"), atomically: true, encoding: .utf8)
            return
        }
        #expect(updated == text, "docs/language.md is behind the registries; run UTQ_RECORD=1 swift test to write its tables")
    }

    @Test func everyVerbIsInHelpCompletionAndTheDocs() throws {
        let overview = try Help.text(for: nil)
        let text = try docs()
        let s = makeSession()
        for spec in Verbs.all {
            let name = spec.name == "pNN" ? "p90" : spec.name
            #expect(spec.name == "pNN" || overview.contains("  " + spec.name + " "), "help does not list \(spec.name)")
            #expect(try Help.text(for: name).hasPrefix(spec.name + " — "), "help \(name)")
            #expect(text.contains("`" + ReferenceDocs.cell(spec.usage.components(separatedBy: "   ")[0])), "docs/language.md lacks \(spec.name)")
            if spec.name != "pNN" {
                #expect(s.complete(spec.name).candidates.contains(spec.name), "completion of \(spec.name)")
            }
            // After a pipe, only verbs that can stand in a pipeline are offered.
            #expect(s.complete("count | " + spec.name).candidates.contains(spec.name) == (spec.role != .statement && spec.name != "pNN"),
                    "completion of \(spec.name) after |")
        }
    }

    @Test func everySettingIsInHelpCompletionTheDocsAndSet() throws {
        let list = try Help.text(for: "settings")
        let setHelp = try Help.text(for: "set")
        let text = try docs()
        let s = makeSession()
        let shown = try #require(s.run("set").isEmpty ? outcomesText(s, "set") : nil)
        for setting in SettingsRegistry.all {
            #expect(list.contains("  " + setting.name + " "), "help settings lacks \(setting.name)")
            #expect(setHelp.contains("  " + setting.name + " "), "help set lacks \(setting.name)")
            #expect(try Help.text(for: setting.name).hasPrefix(setting.name + " — "))
            #expect(text.contains("| `\(setting.name)` |"), "docs/language.md lacks \(setting.name)")
            #expect(s.complete("set " + setting.name).candidates.contains(setting.name))
            #expect(shown.contains("  " + setting.name + " "), "set alone does not show \(setting.name)")
            for alias in setting.aliases { #expect(try Help.text(for: alias) == Help.text(for: setting.name)) }
        }
        #expect(outcomesText(s, "set output") == "output table\n")
        #expect(s.failure("set colr on")?.kind == .unknownSetting("colr", suggestion: "color"))
    }

    @Test func everySessionCommandIsInHelpCompletionAndTheDocs() throws {
        let list = try Help.text(for: "commands")
        let text = try docs()
        let s = makeSession()
        for c in SessionCommands.all {
            #expect(list.contains("  " + c.usage), "help commands lacks \(c.name)")
            #expect(try Help.text(for: ":" + c.name).hasPrefix(":" + c.name + " — "))
            #expect(text.contains("`" + ReferenceDocs.cell(c.usage.components(separatedBy: "   ")[0]) + "`"), "docs/language.md lacks :\(c.name)")
            #expect(s.complete(":").candidates.contains(":" + c.name))
            if c.bare { #expect(s.complete(String(c.name.prefix(3))).candidates.contains(c.name)) }
        }
    }

    @Test func everyHelpTopicCompletesAfterHelp() throws {
        let s = makeSession()
        let offered = Set(s.complete("help ").candidates)
        for topic in Help.registry {
            for name in topic.names where name != "?" && name != "pnn" {
                let shown = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "_.:-$/+".unicodeScalars.contains($0) } ? name : "`\(name)`"
                #expect(offered.contains(shown), "help \(name) is not completed")
                #expect(try Help.text(for: name) == topic.text(), "help \(name) is taken by an earlier topic")
            }
        }
        let text = try docs()
        for t in HelpTopics.topics { #expect(text.contains("`help \(t.name)`")) }
        // The lists name what they list.
        #expect(try Help.text(for: "functions").contains("round(x [, digits])"))
        #expect(try Help.text(for: "settings").contains("  memory-limit  The most memory"))
    }

    @Test func everyWordForASummaryIsAVerb() {
        for word in ["count", "sum", "total", "avg", "mean", "average", "min", "max", "median", "stddev", "sd", "stdev", "first", "last", "p90",
                     "corr", "covar", "covar_samp", "covar_pop", "regr_slope", "regr_intercept", "regr_r2"] {
            #expect(AggregateFunction.named(word) != nil, "\(word)")
            #expect(Verbs.spec(for: word)?.category == .summary, "\(word) is no verb")
        }
    }

    @Test func theDocsExamplesRun() throws {
        let text = try docs()
        let s = makeSession()
        #expect(s.run("load datasets/rides.csv; load datasets/market.json").isEmpty)
        var blocks: [String] = []
        var current: [String]? = nil
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let c = current { blocks.append(c.joined(separator: "\n")); current = nil } else { current = [] }
                continue
            }
            current?.append(line)
        }
        #expect(blocks.count >= 2)
        for block in blocks {
            if block.contains("utq> ") {
                // A transcript: each command's output must be what follows it.
                var parts = block.components(separatedBy: "utq> ").filter { !$0.isEmpty }
                parts = parts.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }
                for part in parts {
                    let command = String(part.prefix { $0 != "\n" })
                    let expected = String(part.dropFirst(command.count + 1))
                    #expect(outcomesText(s, command) == expected, "docs/language.md: \(command)")
                }
            } else {
                for line in block.components(separatedBy: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    #expect(s.failure(line) == nil, "docs/language.md: \(line)")
                }
            }
        }
    }

    /// What a line prints to standard output (tables, text, charts), as it reads.
    func outcomesText(_ s: Session, _ line: String) -> String {
        var out = ""
        s.run(line, name: "<test>") { _, outcome in
            for o in outcome.outputs {
                switch o {
                case .table, .text, .chart: out += OutputText.text(o, settings: s.settings)
                default: break
                }
            }
        }
        return out
    }
}

/// The language fuzz target's dictionary names every verb and function, so the fuzzer
/// reaches new ones as soon as they are added.
@Suite struct FuzzDictionaryTests {
    @Test func theLanguageDictionaryHasEveryVerbAndFunction() throws {
        let dict = try String(contentsOfFile: Repo.path("fuzz/dict/language.dict"), encoding: .utf8)
        for name in Verbs.all.map(\.name).filter({ $0 != "pNN" }) + Functions.all.map(\.name) {
            #expect(dict.contains("\"\(name)\"") || dict.contains("\"\(name)(\""), "fuzz/dict/language.dict lacks \(name)")
        }
    }
}
