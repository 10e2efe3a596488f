import Foundation
import Testing

/// The teaching features as a teacher uses them from the command line: `utq notebook`,
/// `--step` (driven through a pipe, a line per Enter), and `--set`.
@Suite struct TeachingEndToEndTests {
    static let lesson = """
    #!/usr/bin/env utq
    ## Counting in ${place}
    # First load the study.
    load datasets/market.json
    count by legend
    count by legnd
    count by hour | chart bar
    """

    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-teach-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    // MARK: utq notebook

    @Test func notebookWritesMarkdownAndSaysThereWereErrors() throws {
        let dir = try folder()
        let script = dir + "/lesson.utq"
        try Self.lesson.write(toFile: script, atomically: true, encoding: .utf8)
        let r = try runUTQ(["notebook", script, "--set", "place=the square", "-o", dir + "/lesson.md"])
        #expect(r.status == 1)  // the notebook is written, and the status says a command failed
        #expect(r.stderr == "wrote \(dir)/lesson.md: 4 commands, 1 with errors\n")
        let md = try String(contentsOfFile: dir + "/lesson.md", encoding: .utf8)
        #expect(md.hasPrefix("# Counting in the square\n\nFirst load the study.\n\n```utq\nload datasets/market.json\n```\n"))
        #expect(md.contains("| Walking | 451 |"))
        #expect(md.contains("lesson.utq:6:10: error: unknown column \"legnd\" — did you mean \"legend\"?"))
        #expect(md.contains("  12  ████████████████"))
        #expect(md.contains("[2] bar chart of 5 rows"))
        #expect(r.stdout.isEmpty)
        // Nothing temporary is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["lesson.md", "lesson.utq"])
    }

    @Test func notebookWritesOneHTMLPageAndReplacesItOnlyWithForce() throws {
        let dir = try folder()
        let script = dir + "/ok.utq"
        try "## Fine\nload datasets/market.json\ncount by hour | chart column\n".write(toFile: script, atomically: true, encoding: .utf8)
        try "old".write(toFile: dir + "/ok.html", atomically: true, encoding: .utf8)
        // A page that is there is kept unless --force says to replace it.
        let kept = try runUTQ(["notebook", script, "-o", dir + "/ok.html"])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("the file exists; add --force to replace it"), "\(kept.stderr)")
        #expect(try String(contentsOfFile: dir + "/ok.html", encoding: .utf8) == "old")
        let r = try runUTQ(["notebook", script, "-o", dir + "/ok.html", "--force"])
        #expect(r.status == 0)
        let html = try String(contentsOfFile: dir + "/ok.html", encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<h1>Fine</h1>"))
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!html.contains("<script"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["ok.html", "ok.utq"])
    }

    @Test func notebookWithoutAFileWritesMarkdownToStandardOutput() throws {
        let r = try runUTQ(["notebook", "examples/tour.utq"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("## How many of each kind of behaviour?\n\n```utq\ncount by legend\n```\n\n| legend | count |"))
    }

    @Test func notebookRefusesWhatItCannotWrite() throws {
        let bad = try runUTQ(["notebook", "examples/tour.utq", "-o", "tour.pdf"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("cannot tell the kind of notebook from \"tour.pdf\": end it with .md, .html or .ipynb"))
        let missing = try runUTQ(["notebook", "no/such.utq"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "utq: no/such.utq: no such file\n")
        let unset = try runUTQ(["notebook", try temporaryFile("unset.utq", "load ${file}\n")])
        #expect(unset.status == 1)
        #expect(unset.stderr.contains("unset.utq:1:6: error: no value for ${file} (no values were given)"))
    }

    // MARK: --set

    @Test func setFillsInNamesInScriptsAndCommands() throws {
        let script = try temporaryFile("set.utq", "load datasets/${file}\nwhere legend = \"${legend}\" | count\n")
        let r = try runUTQ([script, "--set", "file=market.json", "--set", "legend=Bike"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("   21\n"))
        let c = try runUTQ(["-c", "load datasets/market.json; count by ${by} | limit 1", "--set", "by=legend"])
        #expect(c.stdout.contains("Walking"))
        // A name the script does not use is probably misspelt: say so.
        let unused = try runUTQ([script, "--set", "file=market.json", "--set", "legend=Bike", "--set", "legnd=x"])
        #expect(unused.status == 0)
        #expect(unused.stderr.contains("warning: --set legnd was given, but no script uses ${legnd}"))
        // A missing one stops before anything runs.
        let missing = try runUTQ([script, "--set", "file=market.json"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("set.utq:2:17: error: no value for ${legend} (given: file)"))
        let malformed = try runUTQ([script, "--set", "file"])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("--set needs NAME=VALUE"))
    }

    // MARK: --step

    @Test func stepRunsOneCommandPerEnterAndStopsOnQ() throws {
        let script = try temporaryFile("step.utq", "## Step by step\n# Press Enter.\nload datasets/market.json\ncount by legend\ncount by hour\ncount\n")
        // Two Enters, then q: the first two commands run, the third is shown but not run.
        let r = try runUTQ(["--step", script], stdin: "\n\nq\n")
        #expect(r.status == 0)
        #expect(r.stdout.contains("## Step by step\nPress Enter.\nutq> load datasets/market.json\n"))
        #expect(r.stdout.contains("utq> count by legend\nlegend       count\n"))
        #expect(r.stdout.contains("utq> count by hour\n"))
        #expect(!r.stdout.contains("hour  count"))
        #expect(!r.stdout.contains("utq> count\n"))
        #expect(r.stderr.contains("step 1 of 4 · Enter runs it · type a command to try it · back · q quits"))
        #expect(r.stderr.contains("step 3 of 4"))
        #expect(!r.stderr.contains("step 4 of 4"))
        // The end of input stops too, after what was asked for.
        let eof = try runUTQ(["--step", script], stdin: "\n")
        #expect(eof.status == 0)
        #expect(eof.stderr.contains("market: 516 entries"))
        #expect(!eof.stdout.contains("legend       count"))
    }

    @Test func ctrlCWhileWaitingEndsTheLesson() throws {
        let script = try temporaryFile("step-interrupt.utq", "load datasets/market.json\ncount\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repo.utqBinary)
        process.arguments = ["--step", script]
        process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        let input = Pipe(), err = Pipe()
        process.standardInput = input  // kept open: no Enter and no end of input will come
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        // Wait for the first hint, then press Ctrl-C.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("step 1 of 2") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        process.interrupt()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!process.isRunning, "utq --step went on waiting after Ctrl-C")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }  // SIGTERM may be blocked too
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try input.fileHandleForWriting.close()
    }

    @Test func stepGoesOnAfterAnErrorAndReportsIt() throws {
        let script = try temporaryFile("step-error.utq", "load datasets/market.json\ncount by legnd\ncount\n")
        let r = try runUTQ(["--step", script], stdin: "\n\n\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("step-error.utq:2:10: error: unknown column \"legnd\""))
        #expect(r.stdout.contains("utq> count\ncount\n─────\n  516\n"))
        let none = try runUTQ(["--step"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("--step needs a script"))
    }

    @Test func scriptsStillRunWithoutASubcommand() throws {
        let r = try runUTQ(["--echo", "examples/tour.utq"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("utq> load datasets/market.json\n"))
        let explicit = try runUTQ(["run", "-c", "load datasets/market.json; count"])
        #expect(explicit.stdout.contains("516"))
    }
}

/// The first lesson as a teacher hands it out.
@Suite struct LessonNotebookEndToEndTests {
    @Test func theFirstLessonBecomesMarkdownAndHTML() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-lesson-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let md = try runUTQ(["notebook", "examples/lessons/01-counting.utq", "-o", dir + "/x.md"])
        #expect(md.status == 0)
        let text = try String(contentsOfFile: dir + "/x.md", encoding: .utf8)
        #expect(text.contains("```utq\ncount by legend | chart bar\n```\n\n```\nlegend       count\nWalking      ████"))
        let html = try runUTQ(["notebook", "examples/lessons/01-counting.utq", "-o", dir + "/x.html"])
        #expect(html.status == 0)
        let page = try String(contentsOfFile: dir + "/x.html", encoding: .utf8)
        #expect(page.contains("<title>Lesson 1 — Loading and counting: the market square</title>"))
        #expect(page.contains("<figure class=\"chart\">\n<svg"))
        #expect(page.contains("<h3>Exercise 1</h3>"))
    }
}
