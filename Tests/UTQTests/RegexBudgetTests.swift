import Foundation
import Testing
@testable import UTQCore

/// A regular expression cannot run away with the session: a pattern whose matching doubles
/// with each letter, as (a+)+$ on a run of a's that does not match, stops with an error
/// within seconds, and Ctrl-C stops a long run of matches, or of any function row by row,
/// at once.
@Suite(.serialized) struct RegexBudgetTests {
    static let runaway = String(repeating: "a", count: 36) + "!"

    func session(notes: [String]) -> Session {
        let s = makeSession()
        var t = Table(name: "trips", columns: [Column.from(values: notes.map { .string($0) }, type: .string, name: "note")])
        t.rowCount = notes.count
        s.workspace.put([t], makeCurrent: true)
        return s
    }

    /// Runs `text` on another thread and waits at most `limit` seconds, after setting the
    /// cancel flag at `cancelAfter` if given; how long it ran after the flag (or in all), and
    /// its outcome (nil: it had not finished).
    func run(_ s: Session, _ text: String, cancelAfter: Double? = nil, limit: Double = 30) -> (seconds: Double, outcome: CommandOutcome?) {
        nonisolated(unsafe) var outcome: CommandOutcome?
        nonisolated(unsafe) var finished = Date.distantFuture
        let done = DispatchSemaphore(value: 0)
        let started = Date()
        Thread.detachNewThread {
            s.run(text, name: "<test>") { _, o in outcome = o }
            finished = Date()
            done.signal()
        }
        var from = started
        if let cancelAfter {
            Thread.sleep(forTimeInterval: cancelAfter)
            from = Date()
            s.cancel.cancel()
        }
        // A run that never stops is left behind; the test has failed by then.
        guard done.wait(timeout: .now() + limit) == .success else { return (limit, nil) }
        return (finished.timeIntervalSince(from), outcome)
    }

    @Test func aPatternThatWouldRunForMinutesStopsWithinSecondsAndSaysSo() throws {
        let s = session(notes: ["walk", Self.runaway, "bus"])
        for query in [#"where note ~ "(a+)+$" | count"#, #"select x = extract(note, "(a+)+$")"#, #"select x = extract(note, "(a|aa)*$", 0)"#] {
            let (seconds, outcome) = run(s, query)
            let error = try #require(outcome?.error, "\(query) did not finish in \(seconds) s")
            #expect(seconds < 8 * TestTiming.scale, "\(query) took \(seconds) s")
            #expect(error.message.contains("takes too long on \"aaaaaaaaaa"), "\(error.message)")
            #expect(error.message.contains("simplify it"), "\(error.message)")
            #expect(outcome?.cancelled == false)
        }
        // The session goes on, and patterns that do not run away still answer.
        #expect(try s.table(#"where note ~ "^a+!$" | count"#).strings("count") == ["1"])
        #expect(try s.table(#"where note ~ "(W|B)" | count"#).strings("count") == ["2"])
        #expect(try s.table(#"select x = extract(note, "(a+)!") | where x is not null"#).strings("x") == [Self.runaway])
    }

    @Test func ctrlCStopsALongRunOfMatchesAtOnce() throws {
        // Each text takes the pattern a few milliseconds, within its budget; all of them take
        // minutes.
        let notes = (0..<60_000).map { String(repeating: "a", count: 17) + "!\($0)" }
        let s = session(notes: notes)
        for query in [#"where note ~ "(a+)+$" | count"#, #"select x = extract(note, "(a+)+$")"#] {
            let (seconds, outcome) = run(s, query, cancelAfter: 0.3)
            #expect(outcome?.cancelled == true, "\(query): \(outcome?.error?.message ?? "did not stop")")
            #expect(seconds < 2 * TestTiming.scale, "\(query) took \(seconds) s to stop")
        }
        #expect(try s.table("count").strings("count") == ["60000"])
    }

    @Test func ctrlCStopsAFunctionRowByRowAtOnce() throws {
        // A function applied row by row over many rows, each different.
        let notes = (0..<1_500_000).map { "stop \($0), platform \($0 % 7)" }
        let s = session(notes: notes)
        let query = #"select x = replace(split(note, ",", 2), "platform", "p") | count by x"#
        let (seconds, outcome) = run(s, query, cancelAfter: 0.3)
        #expect(outcome?.cancelled == true, "\(outcome?.error?.message ?? "did not stop")")
        #expect(seconds < 1.5 * TestTiming.scale, "it took \(seconds) s to stop")
    }

    @Test func aPatternICUCannotRunSaysHowToWriteIt() throws {
        let s = session(notes: ["p{L}"])
        let e = try #require(s.failure(#"where note ~ "p{L}" | count"#))
        #expect(e.message == #""p{L}" is not a regular expression ICU can run"#, "\(e.message)")
        #expect(e.hint?.contains(#"\\{ and \\}"#) == true, "\(e.hint ?? "")")
        #expect(try s.table(#"where note ~ "p\\{L\\}" | count"#).strings("count") == ["1"])
    }
}
