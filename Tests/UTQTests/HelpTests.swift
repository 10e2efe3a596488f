import Foundation
import Testing
@testable import UTQCore

/// Help has a topic, with examples, for everything a user can write; the examples run (in
/// SessionTests.everyExampleRunsOnTheMarketSquare), so help cannot drift from the language.
@Suite struct HelpTests {
    /// Of two names one edit away, the one the typed word begins wins ("tou": tour, not top).
    @Test func aWordThatBeginsANameSuggestsThatName() {
        #expect(Suggest.closest("tou", among: ["top", "tour"]) == "tour")
        #expect(Suggest.closest("tou", among: ["tour", "top"]) == "tour")
        #expect(Suggest.closest("tpo", among: ["top", "tour"]) == "top")
        let s = makeSession()
        let text = s.failure("help tou").map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(text.contains("did you mean \"tour\""), "\(text)")
    }

    func help(_ topic: String) throws -> String { try Help.text(for: topic) }

    @Test func everyTopicHasExamplesThatItShows() throws {
        let topics = Help.topics
        // Every verb, function, bucket, setting and kind of chart is a topic.
        let names = Set(topics.map(\.topic))
        for spec in Verbs.all { #expect(names.contains(spec.name == "pNN" ? "p90" : spec.name)) }
        for f in Functions.all { #expect(names.contains(f.name)) }
        for b in HelpTopics.buckets { #expect(names.contains(b.name)) }
        for kind in ChartKind.allCases { #expect(names.contains(kind.rawValue)) }
        for setting in SettingsRegistry.names { #expect(names.contains(setting), "setting \(setting) has no help") }
        for (topic, examples) in topics {
            #expect(!examples.isEmpty, "help \(topic) has no examples")
            let text = try help(topic)
            for example in examples { #expect(text.contains("\n  " + example + "\n") || text.hasSuffix("\n  " + example + "\n"), "help \(topic): \(example)") }
        }
    }

    @Test func chartKindsAreTopicsOfTheirOwn() throws {
        let bar = try help("bar")
        #expect(bar.hasPrefix("chart bar — One horizontal bar per row"))
        #expect(bar.contains("  chart bar [COLUMN] [top N] [stacked|grouped]\n"))
        #expect(try help("chart bar") == bar)
        #expect(try help("histogram") == help("hist"))
        #expect(try help("charts").contains("chart heatmap [COLUMN]"))
        for line in bar.split(separator: "\n") { #expect(line.count <= 100) }
    }

    @Test func notebooksTopicAnswersToItsOtherNames() throws {
        let text = try help("notebooks")
        for name in ["notebook", "history", "record", "results"] { #expect(try help(name) == text) }
        // Lessons have a topic of their own: how an exercise is written.
        #expect(try help("lessons") == (try help("lesson")) && (try help("lesson")).contains("#>    the answer"))
        #expect(text.contains(":record FILE.md"))
        #expect(text.contains("utq --step lesson.utq"))
        #expect(try help("colour") == help("color"))
    }

    @Test func theTourIsTheExampleScriptStepByStep() throws {
        let file = try String(contentsOfFile: Repo.path("examples/tour.utq"), encoding: .utf8)
        #expect(Tour.script == file, "examples/tour.utq changed: copy it into Tour.script (Sources/UTQCore/Session/Tour.swift)")
        let text = try help("tour")
        #expect(text.contains("utq --step examples/tour.utq"))
        let commands = Script.commands(in: SourceText(name: "tour.utq", text: file))
        #expect(commands.count == 10)
        for c in commands { #expect(text.contains("       " + c.text + "\n"), "\(c.text)") }
        #expect(text.contains("  1  Load the project and look at it\n       load datasets/market.json\n       describe\n"))
        // The overview points to it, and to the other teaching topics.
        let overview = try help("")
        #expect(overview.contains("help tour"))
        #expect(overview.contains("help notebooks"))
        #expect(overview.contains("help charts"))
    }

    @Test func unknownTopicsSuggestTheNearestName() {
        #expect(throws: Diagnostic.self) { try Help.text(for: "hart") }
        do { _ = try Help.text(for: "notebok") } catch let d as Diagnostic {
            #expect(d.message == "no help on \"notebok\" — did you mean \"notebook\"?")
        } catch { Issue.record("\(error)") }
    }
}
