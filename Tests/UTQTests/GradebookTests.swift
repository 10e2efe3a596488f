import Foundation
import Testing
@testable import UTQCore

/// Records a teacher can collect and the gradebook made of them: the tutor writes a record of
/// each run as the student works (never the answers), and `utq lesson report` reads a class's
/// records into one row per student and exercise, refusing records of another version.
@Suite struct GradebookTests {
    static let lesson = """
    load datasets/market.json
    ## Counting
    count by legend
    ## Exercise 1
    # Which hour had the most entries?
    #> count by hour | top 1 by count
    #? Count by hour first.
    #? Then keep the top one by count.
    #x count by hour | limit 1
    ## Exercise 2
    # How many people were standing?
    #> where legend = "Standing" | count
    #+ count by legend | where legend = "Standing" | select count
    ## Exercise 3
    # Which notes were written, most written first?
    #> where note is not null | count by note | sort count desc
    #? Leave out the entries without a note.
    """

    /// The answers' text, which no record may hold.
    static let answers = [
        "count by hour | top 1 by count",
        "where legend = \"Standing\" | count",
        "count by legend | where legend = \"Standing\" | select count",
        "where note is not null | count by note | sort count desc",
    ]

    /// A clock the test moves, so the seconds in a record are known.
    final class Clock {
        var now: Date
        init(_ start: Date) { now = start }
        func tick(_ seconds: Double) { now += seconds }
    }

    static let start = Date(timeIntervalSince1970: 1_778_580_000)  // 2026-05-12 10:00 UTC

    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-gradebook-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// One run of a lesson by a student, in-process: each step waits `wait` seconds on the
    /// clock, then types `line`.
    @discardableResult
    func run(_ student: String, _ steps: [(wait: Double, line: String)], text: String = lesson, into folder: String,
             at start: Date = start) -> LessonRecorder {
        let clock = Clock(start)
        let lesson = Lesson(SourceText(name: "counting.utq", text: text))
        let recorder = LessonRecorder(lesson: lesson, lessonPath: "counting.utq", text: text, student: student, folder: folder, now: { clock.now })
        let tutor = LessonTutor(lesson: lesson, session: Session(workingDirectory: Repo.path(""), defaultZone: .utc), progress: nil, recorder: recorder)
        _ = tutor.start()
        for step in steps {
            clock.tick(step.wait)
            _ = tutor.handle(step.line)
        }
        return recorder
    }

    /// The three students of the tests: right throughout, not yet after two hints, skipping.
    func aClass(into dir: String) {
        run("ana", [(20, "count by hour"), (15, "count by hour | sort count desc | limit 1"),
                    (30, "count by legend | where legend = \"Standing\""),
                    (40, "count by note | where note is not null | sort count desc")], into: dir)
        run("ben", [(10, "count by hour | limit 1"), (5, "hint"), (5, "hint"), (25, "count by legnd"), (12, "quit")],
            into: dir, at: Self.start + 3600)
        run("cai", [(8, "skip"), (4, "skip"), (6, "quit")], into: dir, at: Self.start + 7200)
    }

    func records(in dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".record.json") }.sorted()
    }

    /// Cells of a CSV without quoted fields (none of these has a comma or a quote).
    func cells(_ csv: String) -> [[String]] {
        csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func aRecordHoldsTheWorkOfEachExercise() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        aClass(into: dir)
        let names = try records(in: dir)
        #expect(names.count == 3)
        let ben = try #require(names.first { $0.contains(".ben.") })
        #expect(ben.hasPrefix("counting.") && ben.hasSuffix(".record.json"))
        let record = try LessonRecord.read(Data(contentsOf: URL(fileURLWithPath: dir + "/" + ben))).get()
        #expect(record.lesson == "counting" && record.student == "ben")
        #expect(record.version == LessonProgress.version(of: Self.lesson))
        #expect(record.startedDate == Self.start + 3600)
        #expect(record.exerciseTitles == ["Exercise 1", "Exercise 2", "Exercise 3"])
        #expect(record.exercises.count == 1)
        let work = record.exercises[0]
        #expect(work.number == 1 && work.title == "Exercise 1" && work.mark == .notYet && work.hints == 2 && work.seconds == 57)
        #expect(work.tries.map(\.line) == ["count by hour | limit 1", "count by legnd"])
        #expect(work.tries[0].result == "1 row × 2 columns")
        #expect(work.tries[0].verdict.hasPrefix("not yet: your result has a row the answer does not"))
        #expect(work.tries[1].result.hasPrefix("unknown column \"legnd\""))
        #expect(work.tries[1].verdict == "did not run")
        // A page to read is written beside it.
        let page = try String(contentsOfFile: dir + "/" + ben.replacingOccurrences(of: ".json", with: ".md"), encoding: .utf8)
        #expect(page.contains("## 1. Exercise 1: not yet") && page.contains("2 lines typed, 2 hints, 57 s."))
        #expect(page.contains("- `count by legnd` did not run: unknown column \"legnd\""))
    }

    /// A run stopped without quit (^C, a closed window) keeps what was done up to then.
    @Test func theRecordIsWrittenAfterEachEvent() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recorder = run("dee", [(9, "count by hour")], into: dir)
        let path = try #require(recorder.path)
        let record = try LessonRecord.read(Data(contentsOf: URL(fileURLWithPath: path))).get()
        #expect(record.exercises.map(\.tries.count) == [1])
        #expect(record.exercises[0].seconds == 9)
        // A password typed in a line is left out, as the history leaves it out.
        let secret = run("dee", [(1, "load postgres://dee:hunter22@localhost:1/nothing")], into: dir, at: Self.start + 60)
        let kept = try String(contentsOfFile: try #require(secret.path), encoding: .utf8)
        #expect(kept.contains("postgres://dee:…@localhost") && !kept.contains("hunter22"))
        // Opening a lesson and typing nothing leaves no record.
        #expect(run("eve", [], into: dir).path == nil)
    }

    @Test func theGradebookHasARowPerStudentAndExercise() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        aClass(into: dir)
        let book = Gradebook(paths: [dir])
        #expect(book.problems.isEmpty)
        let rows = cells(book.csv())
        #expect(rows[0] == ["student", "lesson", "exercise", "title", "mark", "tries", "hints", "seconds", "runs", "started"])
        // Without the started time, checked below.
        let expected: [[String]] = [
            ["ana", "counting", "1", "Exercise 1", "right", "2", "0", "35", "1"],
            ["ana", "counting", "2", "Exercise 2", "right", "1", "0", "30", "1"],
            ["ana", "counting", "3", "Exercise 3", "right", "1", "0", "40", "1"],
            ["ben", "counting", "1", "Exercise 1", "not yet", "2", "2", "57", "1"],
            ["ben", "counting", "2", "Exercise 2", "not reached", "0", "0", "0", "1"],
            ["ben", "counting", "3", "Exercise 3", "not reached", "0", "0", "0", "1"],
            ["cai", "counting", "1", "Exercise 1", "skipped", "0", "0", "8", "1"],
            ["cai", "counting", "2", "Exercise 2", "skipped", "0", "0", "4", "1"],
            ["cai", "counting", "3", "Exercise 3", "not yet", "0", "0", "6", "1"],
        ]
        #expect(rows.count == expected.count + 1)
        for (row, want) in zip(rows.dropFirst(), expected) {
            #expect(row.count == 10)
            #expect(Array(row.prefix(9)) == want)
        }
        let iso = ISO8601DateFormatter()
        let started = rows.dropFirst().map { $0[9] }
        #expect(started.prefix(3).allSatisfy { iso.date(from: $0) == Self.start })
        #expect(iso.date(from: started[3]) == Self.start + 3600)
        #expect(started[4] == "" && started[5] == "")
        #expect(started.suffix(3).allSatisfy { iso.date(from: $0) == Self.start + 7200 })

        // The page: each student, and a bar per exercise of how many got it right.
        let html = book.html()
        #expect(html.hasPrefix("<!DOCTYPE html>") && !html.contains("<script"))
        for student in ["ana", "ben", "cai"] { #expect(html.contains("<td>\(student)</td>")) }
        #expect(html.components(separatedBy: "<g class=\"bar\">").count - 1 == 3)
        #expect(html.contains("1. Exercise 1: 1 of 3 students right"))
        #expect(html.contains("@media print"))
        // The terminal's table: aligned, with the same marks.
        let text = book.text()
        #expect(text.hasPrefix("counting: 3 students, 3 exercises"))
        #expect(text.contains("ben      1  Exercise 1  not yet"))
        #expect(text.contains("  1 Exercise 1  " + String(repeating: "█", count: 7) + String(repeating: "░", count: 13) + "  1 of 3"))
    }

    @Test func noRecordHoldsTheAnswers() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        aClass(into: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".record.") }
        #expect(files.count == 6)  // a .json and a .md for each run
        for file in files {
            let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
            // JSON escapes quotes: look for the answers both ways.
            for a in Self.answers {
                #expect(!text.contains(a) && !text.contains(a.replacingOccurrences(of: "\"", with: "\\\"")), "\(file) holds \(a)")
            }
        }
        // The report made of them holds none either.
        let book = Gradebook(paths: [dir])
        for page in [book.csv(), book.html(), book.text()] {
            for a in Self.answers { #expect(!page.contains(a) && !page.contains(HTMLText.escape(a))) }
        }
    }

    @Test func aSecondRunMakesASecondRecordAndTheBestMarkCounts() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = run("ben", [(10, "count by hour | limit 1"), (5, "quit")], into: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: try #require(first.path)))
        // The same second: the file name is taken, so the run takes another.
        let second = run("ben", [(3, "count by hour | sort count desc | limit 1"), (2, "quit")], into: dir)
        #expect(second.path != nil && second.path != first.path)
        #expect(second.path?.hasSuffix("-2.record.json") == true)
        #expect(try records(in: dir).count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.path!)) == before)
        let rows = cells(Gradebook(paths: [dir]).csv())
        #expect(Array(rows[1].prefix(9)) == ["ben", "counting", "1", "Exercise 1", "right", "1", "0", "3", "2"])
        #expect(Array(rows[2].prefix(9)) == ["ben", "counting", "2", "Exercise 2", "not yet", "0", "0", "2", "2"])
    }

    @Test func aRecordOfAnotherVersionIsRefusedByName() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let older = Self.lesson.replacingOccurrences(of: "# How many people were standing?", with: "# How many stood?")
        let old = run("ola", [(5, "count by hour | sort count desc | limit 1")], text: older, into: dir, at: Self.start - 86_400)
        aClass(into: dir)
        let oldPath = try #require(old.path)
        let lessonFile = dir + "/counting.utq"
        try Self.lesson.write(toFile: lessonFile, atomically: true, encoding: .utf8)
        // Against the lesson given, and, without it, against the newest records.
        for paths in [[dir, lessonFile], [dir]] {
            let book = Gradebook(paths: paths)
            #expect(book.problems.count == 1)
            let message = try #require(book.problems.first)
            #expect(message.hasPrefix("\(oldPath): ola's record is of another version of counting than "))
            #expect(message.contains(paths.count == 2 ? lessonFile : "the newest records of it"))
            #expect(Set(book.rows.map(\.student)) == ["ana", "ben", "cai"])
            #expect(book.recordsRead == 3)
        }
        // Graded against the old lesson, the old record is the one kept.
        let oldFile = dir + "/old/counting.utq"
        try FileManager.default.createDirectory(atPath: dir + "/old", withIntermediateDirectories: true)
        try older.write(toFile: oldFile, atomically: true, encoding: .utf8)
        let book = Gradebook(paths: [dir, oldFile])
        #expect(book.rows.map(\.student).allSatisfy { $0 == "ola" })
        #expect(book.problems.count == 3)
    }

    @Test func whatCannotBeReadIsNamed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let broken = dir + "/x.record.json"
        try "{\"format\": \"utq lesson record 1\", \"lesson\": \"c\"}".write(toFile: broken, atomically: true, encoding: .utf8)
        let other = dir + "/notes.json"
        try "[1, 2]".write(toFile: other, atomically: true, encoding: .utf8)
        let book = Gradebook(paths: [dir, other, dir + "/nothing"])
        #expect(book.rows.isEmpty)
        #expect(book.problems == [
            "\(broken): the record has no \"file\"; it was cut short or edited",
            "\(other): not a lesson record (it has no \"format\": \"utq lesson record 1\")",
            "\(dir)/nothing: no such file or folder",
        ])
    }

    /// The shell: two students' runs of a shipped lesson, then `utq lesson report DIR -o x.csv`.
    @Test func theReportCommandWritesACSV() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lesson = Repo.path("examples/lessons/01-counting.utq")
        // Each student's own data folder, as on their own machines; the teacher collects both.
        let a = try runUTQ(["lesson", lesson, "--student", "Ana"], stdin: "count\nwhere legend = \"Standing\" | count as n\nquit\n",
                           environment: ["UTQ_LESSON_PROGRESS": dir + "/ana"])
        #expect(a.status == 0)
        #expect(a.stderr.contains("the record of this run, for your teacher: \(dir)/ana/01-counting."))
        let b = try runUTQ(["lesson", lesson], stdin: "hint\nskip\nquit\n",
                           environment: ["UTQ_LESSON_PROGRESS": dir + "/ben", "UTQ_STUDENT": "Ben"])
        #expect(b.status == 0)
        let r = try runUTQ(["lesson", "report", dir, "-o", dir + "/x.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "wrote \(dir)/x.csv: 2 students, 1 lesson, 6 rows from 2 records\n")
        let rows = cells(try String(contentsOfFile: dir + "/x.csv", encoding: .utf8))
        #expect(rows.count == 7)
        #expect(rows[1].prefix(6) == ["Ana", "01-counting", "1", "Exercise 1", "right", "2"])
        #expect(rows[2].prefix(6) == ["Ana", "01-counting", "2", "Exercise 2", "not yet", "0"])
        #expect(rows[3][4] == "not reached")
        #expect(rows[4].prefix(7) == ["Ben", "01-counting", "1", "Exercise 1", "skipped", "0", "1"])
        #expect(rows[5][4] == "not yet" && rows[6][4] == "not reached")
        // Nothing to read: exit 1.
        let none = try runUTQ(["lesson", "report", dir + "/ana/nothing"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no such file or folder"))
        let refused = try runUTQ(["lesson", "report", dir, "-o", dir + "/x.pdf"])
        #expect(refused.status != 0 && refused.stderr.contains("end it with .csv or .html"))
    }
}
