import Foundation
import Testing
@testable import UTQCore

/// The corpus (Tests/Corpus, run through every stage by CorpusTests) is only worth its
/// snapshots if it exercises the whole language. These tests hold it to the registries:
/// every verb, scalar function, summary, time bucket, window function and kind of chart
/// must be written in at least one corpus script, so a refactor of any of them shows up
/// as a snapshot diff. The words are read with the real lexer, from the commands alone
/// (comments do not count).
@Suite struct CorpusCoverageTests {
    static let folder = "Tests/Corpus"

    /// The corpus scripts by name. Throws when the folder cannot be read, so a wrong path
    /// fails the test instead of passing it with nothing to check.
    static func scripts() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Repo.path(folder))
        return names.filter { $0.hasSuffix(".utq") }.sorted()
    }

    /// What the commands of the corpus write, token by token.
    struct Words {
        /// Every unquoted name, in lower case.
        var all: Set<String> = []
        /// Names a stage begins with: the first of a command, the first after `|`, and the
        /// one after `left` (`left join`).
        var stageHeads: Set<String> = []
        /// Names written as a call, followed by `(`.
        var calls: Set<String> = []
        /// Names called inside a `let` stage (or its aliases): the window functions.
        var callsInLet: Set<String> = []
        /// The word after `chart`.
        var chartKinds: Set<String> = []
        /// Whether `every` is followed by a span somewhere (`count by every 15m`).
        var everyWithSpan = false
        /// Each script and how many commands it has.
        var commands: [String: Int] = [:]
    }

    static func words() throws -> Words {
        var w = Words()
        for name in try scripts() {
            let path = "\(folder)/\(name)"
            let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
            var count = 0
            for block in LiterateScript.blocks(in: SourceText(name: path, text: text)) {
                guard case .command(let command) = block else { continue }
                count += 1
                let tokens = command.tokens.filter { if case .newline = $0.kind { return false } else { return true } }
                var atStageStart = true
                var inLet = false
                for (i, token) in tokens.enumerated() {
                    if token.isSymbol(.pipe) || token.kind == .semicolon {
                        atStageStart = true
                        inLet = false
                        continue
                    }
                    guard case .identifier(let raw, let quoted) = token.kind, !quoted else {
                        atStageStart = false
                        continue
                    }
                    let word = raw.lowercased()
                    w.all.insert(word)
                    if atStageStart {
                        w.stageHeads.insert(word)
                        inLet = ["let", "derive", "extend"].contains(word)
                    }
                    // `left join`: join heads the stage too.
                    atStageStart = word == "left" && atStageStart
                    let next = i + 1 < tokens.count ? tokens[i + 1] : nil
                    if let next, next.isSymbol(.lparen) {
                        w.calls.insert(word)
                        if inLet { w.callsInLet.insert(word) }
                    }
                    if word == "chart", let kind = next?.identifier { w.chartKinds.insert(kind.lowercased()) }
                    if word == "every", let next, case .duration = next.kind { w.everyWithSpan = true }
                }
            }
            w.commands[name] = count
        }
        return w
    }

    static func missing(_ names: [String], from set: Set<String>) -> [String] {
        var seen: Set<String> = []
        return names.map { $0.lowercased() }.filter { !set.contains($0) && seen.insert($0).inserted }
    }

    @Test func theCorpusHasAtLeastThirtyScriptsOfTenCommandsOrMore() throws {
        let names = try Self.scripts()
        #expect(names.count >= 30, "Tests/Corpus has \(names.count) scripts: \(names.joined(separator: ", "))")
        let w = try Self.words()
        for (name, count) in w.commands.sorted(by: { $0.key < $1.key }) {
            #expect(count >= 10, "\(name) has \(count) commands; a corpus script has at least 10")
        }
    }

    @Test func everyVerbStartsAStageSomewhere() throws {
        let w = try Self.words()
        let verbs = Verbs.all.map(\.name)
        #expect(!verbs.isEmpty)
        let missing = Self.missing(verbs, from: w.stageHeads)
        #expect(missing.isEmpty, "verbs no corpus script uses: \(missing.joined(separator: ", "))")
        let summaries = AggregateVerb.specs.map(\.name)
        let missingSummaries = Self.missing(summaries, from: w.stageHeads)
        #expect(missingSummaries.isEmpty, "summary verbs no corpus script uses: \(missingSummaries.joined(separator: ", "))")
        // pNN is a verb of its own in help; any percentile word stands for it.
        #expect(w.stageHeads.contains { AggregateFunction.percentile(from: $0) != nil }, "no corpus script starts a stage with a percentile (p90 …)")
    }

    @Test func everyScalarFunctionIsCalled() throws {
        let w = try Self.words()
        let names = Functions.all.map(\.name)
        #expect(names.count > 30)
        let missing = Self.missing(names, from: w.calls)
        #expect(missing.isEmpty, "functions no corpus script calls: \(missing.joined(separator: ", "))")
    }

    @Test func everySummaryFunctionIsUsed() throws {
        let w = try Self.words()
        let names = AggregateFunction.plain.map(\.name)
        let missing = Self.missing(names, from: w.all)
        #expect(missing.isEmpty, "summaries no corpus script uses: \(missing.joined(separator: ", "))")
        #expect(w.all.contains { AggregateFunction.percentile(from: $0) != nil }, "no corpus script uses a percentile (p10, p90 …)")
    }

    @Test func everyTimeBucketIsUsed() throws {
        let w = try Self.words()
        let buckets: [TimeBucket] = [.minute, .hour, .weekday, .day, .week, .month, .year, .every(15 * 60_000_000), .timeOfDay, .monthOfYear]
        let names = TimeBucket.names + buckets.map(\.name)
        let missing = Self.missing(names, from: w.all)
        #expect(missing.isEmpty, "time buckets no corpus script uses: \(missing.joined(separator: ", "))")
        #expect(w.everyWithSpan, "no corpus script writes every with a span (count by every 15m)")
        #expect(w.calls.contains("bucket"), "no corpus script calls bucket(t, 15m)")
        // Buckets are functions too: hour(t), day(t) ….
        let missingCalls = Self.missing(buckets.filter { $0 != .every(15 * 60_000_000) }.map(\.name), from: w.calls)
        #expect(missingCalls.isEmpty, "time buckets no corpus script calls as a function: \(missingCalls.joined(separator: ", "))")
    }

    @Test func everyWindowFunctionIsCalledInLet() throws {
        let w = try Self.words()
        let kinds: [WindowCall.Kind] = [.prev(1), .next(1), .rowNumber, .rank, .runningSum]
        let names = kinds.map { kind in
            let call = WindowCall(kind: kind, argument: nil, name: "", type: .int, unit: .automatic)
            return String(call.describe.prefix { $0 != "(" })
        }
        // The registry's names, aliases included (lag, lead, cumsum).
        let missing = Self.missing(names + WindowCall.rowFunctions, from: w.callsInLet)
        #expect(missing.isEmpty, "window functions no corpus script calls in let: \(missing.joined(separator: ", "))")
        // Every summary is a window function in let too (sum(count) over a group).
        let summaries = AggregateFunction.plain.map(\.name)
        let missingSummaries = Self.missing(summaries, from: w.callsInLet)
        #expect(missingSummaries.isEmpty, "summaries no corpus script calls in let: \(missingSummaries.joined(separator: ", "))")
        #expect(w.callsInLet.contains { AggregateFunction.percentile(from: $0) != nil }, "no corpus script calls a percentile in let (p90(x))")
    }

    @Test func everyKindOfChartIsDrawn() throws {
        let w = try Self.words()
        let missing = Self.missing(ChartKind.allCases.map(\.rawValue), from: w.chartKinds)
        #expect(missing.isEmpty, "kinds of chart no corpus script draws: \(missing.joined(separator: ", "))")
    }
}
