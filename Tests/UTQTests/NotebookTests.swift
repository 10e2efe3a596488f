import Foundation
import Testing
@testable import UTQCore

/// Scripts read as lessons, and the notebooks made of them: Markdown and HTML pages with
/// every command and its output, errors where they happened, all data escaped.
@Suite struct NotebookTests {
    func blocks(_ text: String) -> [String] {
        LiterateScript.blocks(in: SourceText(name: "t.utq", text: text)).map { block in
            switch block {
            case .heading(let level, let text): return "h\(level) \(text)"
            case .prose(let text): return "p " + text
            case .command(let c): return "c " + c.text
            case .answer(let c): return "a " + c.text.trimmingCharacters(in: .whitespaces)
            case .hint(let text): return "? " + text
            case .wrong(let c): return "x " + c.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
            case .alternative(let c): return "+ " + c.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
            case .rule(let words): return "= " + words
            }
        }
    }

    // MARK: literate scripts

    @Test func headingsProseAndCommandsInOrder() {
        let text = """
        #!/usr/bin/env utq
        ## Lesson 1
        # Load the square,
        # then count it.
        #
        # A second paragraph.
        load datasets/market.json   # a comment after a command is not prose

        ### Exercise
        # How many bikes?
        where legend = "Bike" |
          # a comment inside a pipeline stays in it
          count; count by hour
        ##
        #    indented stays indented
        """
        #expect(blocks(text) == [
            "h2 Lesson 1",
            "p Load the square,\nthen count it.",
            "p A second paragraph.",
            "c load datasets/market.json",
            "h3 Exercise",
            "p How many bikes?",
            "c where legend = \"Bike\" |\n  # a comment inside a pipeline stays in it\n  count",
            "c count by hour",
            "p    indented stays indented",
        ])
    }

    @Test func aCommandStartingWhereAnotherEndsKeepsTheProseAfterIt() {
        #expect(blocks("count |\n  sort count; count by hour\n# after\ncount") == [
            "c count |\n  sort count", "c count by hour", "p after", "c count",
        ])
    }

    @Test func aScriptWithoutCommentsIsOnlyCommands() {
        #expect(blocks("load datasets/market.json\ncount") == ["c load datasets/market.json", "c count"])
        #expect(blocks("") == [])
        #expect(blocks("#!/usr/bin/env utq\n") == [])
        // Only a first line is a shebang; ##x is no heading.
        #expect(blocks("count\n#!x\n##x") == ["c count", "p !x\n#x"])
    }

    @Test func theSessionRunsLiterateScriptsAsBefore() throws {
        let s = makeSession()
        let errors = s.run("## Title\n# prose\nload datasets/market.json\n# more\ncount", name: "t.utq")
        #expect(errors.isEmpty)
        #expect(s.history == ["load datasets/market.json", "count"])
    }

    // MARK: notebooks

    static let lesson = """
    #!/usr/bin/env utq
    ## Counting in the square
    # Load the study and count *each* legend.
    load datasets/market.json
    count by legend

    ## A chart
    count by hour | chart bar
    count by legnd
    # The notebook goes on after an error.
    _ | sort count desc | limit 1
    """

    @Test func aNotebookHasEveryCommandAndItsOutput() throws {
        let s = makeSession()
        let nb = s.notebook(Self.lesson, name: "lesson.utq")
        #expect(nb.title == "Counting in the square")
        #expect(nb.commandCount == 5)
        #expect(nb.errorCount == 1)
        let md = NotebookFormat.markdown.render(nb)
        #expect(md.hasPrefix("# Counting in the square\n\nLoad the study and count *each* legend.\n\n```utq\nload datasets/market.json\n```\n\n```\nmarket: 516 entries"))
        #expect(md.contains("```utq\ncount by legend\n```\n\n| legend | count |\n|---|---:|\n| Walking | 451 |\n"))
        #expect(md.contains("| Sitting | 9 |\n\n_[1] 7 rows_\n\n## A chart\n"))
        // The chart as it prints, with its number.
        #expect(md.contains("```utq\ncount by hour | chart bar\n```\n\n```\nhour  count\n  08  "))
        #expect(md.contains(" 78\n[2] bar chart of 5 rows\n```\n"))
        // The error where it happened, with its place and hint, and the notebook goes on.
        #expect(md.contains("```utq\ncount by legnd\n```\n\n```text\nlesson.utq:9:10: error: unknown column \"legnd\" — did you mean \"legend\"?\n  count by legnd\n           ^^^^^\n"))
        #expect(md.contains("The notebook goes on after an error.\n\n```utq\n_ | sort count desc | limit 1\n```\n\n| hour | count |\n|---:|---:|\n| 12 | 154 |\n\n_[3] 1 row_\n"))
        #expect(md.hasSuffix("---\n\n_made by utq from lesson.utq · 5 commands · 1 error_\n"))
        #expect(!md.contains("#!"))
    }

    @Test func aWideTableStaysAlignedTextInMarkdown() throws {
        let s = makeSession()
        s.settings.render.width = 40
        let nb = s.notebook("load datasets/market.json\nlimit 2\ncount by legend | limit 2", name: "wide.utq")
        let md = NotebookFormat.markdown.render(nb)
        #expect(md.contains("```utq\nlimit 2\n```\n\n```\ntime                 legend   icon\n"))
        #expect(md.contains("[1] 2 rows · 5 more columns: x, y, angle, note, tag\n```"))
        #expect(md.contains("| legend | count |\n|---|---:|\n| Walking | 451 |\n| Bike | 21 |\n\n_[2] 2 rows_"))
    }

    @Test func longResultsShowHeadAndTailWithAGap() throws {
        let s = makeSession()
        s.settings.render.maxRows = 6
        let nb = s.notebook("load datasets/market.json\ncount by legend, hour", name: "long.utq")
        let md = NotebookFormat.markdown.render(nb)
        #expect(md.contains("| Walking | 16 | 125 |\n| Walking | 19 | 95 |\n| ⋮ | ⋮ | ⋮ |\n| Sitting | 12 | 5 |\n| Sitting | 16 | 4 |\n\n_[1] 20 rows (14 not shown; set maxrows to see more)_"))
        let html = NotebookFormat.html.render(nb)
        #expect(html.contains("<tr class=\"gap\"><td colspan=\"3\">⋮ 14 rows not shown</td></tr>"))
    }

    @Test func otherOutputFormatsPrintAsText() throws {
        let s = makeSession()
        let nb = s.notebook("load datasets/market.json\nset output csv\ncount by legend | limit 2", name: "csv.utq")
        let md = NotebookFormat.markdown.render(nb)
        #expect(md.contains("```utq\ncount by legend | limit 2\n```\n\n```\nlegend,count\nWalking,451\nBike,21\n```"))
    }

    @Test func theHTMLPageIsSelfContainedAndEscapesEverything() throws {
        let hostile = "<script>alert(1)</script>"
        let csv = try temporaryFile("hostile.csv", "name,n\n\"\(hostile)\",1\n\"a & b\",2.5\n")
        let s = makeSession()
        let script = """
        ## Data <b>is</b> escaped
        # Prose with `code`, **bold** and <i>tags</i> & ampersands.
        # - a list item
        # - another
        load \(csv) as t
        t | sort n desc
        t | chart bar n
        where name = "</pre><script>" | count by nope
        """
        let nb = s.notebook(script, name: "x<y>.utq")
        let html = NotebookFormat.html.render(nb)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
        // Nothing from outside the page: no scripts, no links, no external files.
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("src="))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").dropFirst().allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") })
        #expect(html.contains("<title>Data &lt;b&gt;is&lt;/b&gt; escaped</title>"))
        #expect(html.contains("<h1>Data &lt;b&gt;is&lt;/b&gt; escaped</h1>"))
        #expect(html.contains("<p>Prose with <code>code</code>, <strong>bold</strong> and &lt;i&gt;tags&lt;/i&gt; &amp; ampersands.</p>"))
        #expect(html.contains("<ul>\n<li>a list item</li>\n<li>another</li>\n</ul>"))
        #expect(html.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td><td class=\"num\">1.0</td>"))
        #expect(html.contains("<td>a &amp; b</td><td class=\"num\">2.5</td>"))
        #expect(html.contains("<th>name</th><th class=\"num\">n</th>"))
        #expect(html.contains("<p class=\"foot\"><span class=\"n\">[1]</span> 2 rows</p>"))
        // The chart is inline SVG with its text escaped, and says its number.
        #expect(html.contains("<figure class=\"chart\">\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;</text>"))
        #expect(!html.contains("<?xml"))
        #expect(html.contains("<figcaption><span class=\"n\">[2]</span> bar chart of 2 rows</figcaption>"))
        // The command and the error are escaped too.
        #expect(html.contains("<pre class=\"cmd\"><span class=\"prompt\">utq&gt;</span> where name = &quot;&lt;/pre&gt;&lt;script&gt;&quot; | count by nope</pre>"))
        #expect(html.contains("<section class=\"cell failed\">"))
        #expect(html.contains("<pre class=\"error\">x&lt;y&gt;.utq:8:"))
        #expect(html.hasSuffix("<footer>made by utq from x&lt;y&gt;.utq · 4 commands · <span class=\"errors\">1 error</span></footer>\n</main>\n</body>\n</html>\n"))
    }

    @Test func markdownEscapesWhatWouldBecomeMarkup() {
        #expect(MarkdownNotebook.escape("avg_angle *x* <b>") == "avg_angle \\*x\\* \\<b>")
        #expect(MarkdownNotebook.cellText("a | b") == "a \\| b")
        #expect(MarkdownNotebook.cellText("") == " ")
        // A fence longer than any run of backticks inside.
        #expect(MarkdownNotebook.fenced("a ``` b", info: "") == "````\na ``` b\n````\n\n")
    }

    @Test func proseKeepsExamplesAndEmphasisApart() {
        #expect(HTMLText.inline("x * 2 and *y*") == "x * 2 and <em>y</em>")
        #expect(HTMLText.inline("`a < b` **c**") == "<code>a &lt; b</code> <strong>c</strong>")
        #expect(HTMLText.prose("Try:\n    count by hour\nthen more.") == "<p>Try:</p>\n<pre class=\"example\">count by hour</pre>\n<p>then more.</p>\n")
        #expect(HTMLText.prose("1. one\n2. two") == "<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n")
        #expect(HTMLText.escape("\u{1B}[31m'\"") == "\u{FFFD}[31m&#39;&quot;")
    }

    // MARK: :record

    @Test func recordWritesEachCommandAsItHappens() throws {
        let (s, dir) = try SessionTests.market()
        let start = s.run(":record class.md", name: "<input>")
        #expect(start.isEmpty)
        let path = dir + "/class.md"
        let empty = try String(contentsOfFile: path, encoding: .utf8)
        #expect(empty.hasPrefix("# utq session, "))
        #expect(empty.hasSuffix("---\n\n_0 commands_\n"))
        _ = s.run("## Morning", name: "<input>")
        _ = s.run("count by legend", name: "<input>")
        let one = try String(contentsOfFile: path, encoding: .utf8)
        #expect(one.contains("## Morning\n\n```utq\ncount by legend\n```\n\n| legend | count |\n"))
        #expect(one.hasSuffix("_1 command_\n"))
        _ = s.run("count by legnd", name: "<input>")
        _ = s.run("count by hour | chart bar", name: "<input>")
        let more = try String(contentsOfFile: path, encoding: .utf8)
        #expect(more.contains("```text\nerror: unknown column \"legnd\" — did you mean \"legend\"?\n"))
        #expect(more.contains("[2] bar chart of 5 rows\n```"))
        #expect(more.hasSuffix("_3 commands · 1 error_\n"))
        // :record off stops, and is not itself part of the notebook.
        var stopped: [String] = []
        s.run(":record off", name: "<input>") { _, o in for case .info(let i) in o.outputs { stopped.append(i) } }
        #expect(stopped == ["stopped recording: 3 commands in class.md"])
        _ = s.run("count", name: "<input>")
        let final = try String(contentsOfFile: path, encoding: .utf8)
        #expect(final == more)
        #expect(!final.contains(":record"))
        // An existing file is kept unless :record! replaces it.
        let refused = s.failure(":record class.md")
        #expect(refused?.message == "cannot write class.md: the file exists")
        #expect(refused?.hint == "write :record! class.md to replace it")
        #expect(s.failure(":record! class.md") == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("_0 commands_\n"))
        _ = s.run(":record off", name: "<input>")
        #expect(s.failure(":record class.txt")?.message == "cannot tell what kind of notebook class.txt is from its name")
        #expect(s.failure(":record")?.message == ":record needs a file to write the session to")
    }

    @Test func aRecordingHasNoTerminalColours() throws {
        let (s, dir) = try SessionTests.market()
        s.settings.render.color = true  // as at a terminal
        #expect(s.failure(":record class.md") == nil)
        var printed = ""
        s.run("count by hour | chart bar\ncount by legend", name: "<input>") { _, o in
            for output in o.outputs { printed += OutputText.text(output, settings: s.settings) }
        }
        #expect(printed.contains("\u{1B}["))  // the terminal got colour
        let md = try String(contentsOfFile: dir + "/class.md", encoding: .utf8)
        #expect(!md.contains("\u{1B}"))
        #expect(md.contains("```\nhour  count\n  08  ███"))
    }

    @Test func recordingAsHTMLIsAlwaysACompletePage() throws {
        let (s, dir) = try SessionTests.market()
        #expect(s.failure(":record class.html") == nil)
        _ = s.run("count by hour | chart column", name: "<input>")
        let page = try String(contentsOfFile: dir + "/class.html", encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg xmlns="))
        #expect(page.hasSuffix("</html>\n"))
    }

    @Test func aRecordingThatCannotBeWrittenStopsWithAWarning() throws {
        let (s, dir) = try SessionTests.market()
        try FileManager.default.createDirectory(atPath: dir + "/notes", withIntermediateDirectories: true)
        #expect(s.failure(":record notes/class.md") == nil)
        try FileManager.default.removeItem(atPath: dir + "/notes")
        var warnings: [String] = []
        s.run("count", name: "<input>") { _, o in for case .warning(let w) in o.outputs { warnings.append(w) } }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("recording to notes/class.md stopped: ") == true)
        var next: [String] = []
        s.run("count", name: "<input>") { _, o in for case .warning(let w) in o.outputs { next.append(w) } }
        #expect(next.isEmpty)
    }
}

/// The ```utq blocks of docs/notebooks.md, each run as a script on the market study.
@Suite struct NotebookDocsTests {
    static let blocks: [String] = {
        guard let doc = try? String(contentsOfFile: Repo.path("docs/notebooks.md"), encoding: .utf8) else { return [] }
        var out: [String] = [], current: [String]? = nil
        for line in doc.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let c = current { out.append(c.joined(separator: "\n")); current = nil } else if line == "```utq" { current = [] }
                continue
            }
            current?.append(line)
        }
        return out
    }()

    @Test func thereAreExamples() { #expect(Self.blocks.count >= 5) }

    /// The --set example: the values of its command line put into its script, run from the
    /// project's folder as a reader would.
    @Test func theSetExampleRuns() throws {
        let doc = try String(contentsOfFile: Repo.path("docs/notebooks.md"), encoding: .utf8)
        let command = try #require(doc.components(separatedBy: "\n").first { $0.hasPrefix("utq lesson.utq --set") })
        var values: [String: String] = [:]
        for pair in command.components(separatedBy: "--set ").dropFirst() {
            let kv = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            values[kv[0]] = kv[1]
        }
        let script = try #require(doc.components(separatedBy: "```").first { $0.hasPrefix("text\n## Bus lines of ${city}") })
        let (text, used) = try ScriptVariables.substitute(String(script.dropFirst(5)), values: values, name: "lesson.utq")
        #expect(used == Set(values.keys))
        let s = Session(workingDirectory: Repo.path(""), defaultZone: .utc)
        var tables = 0
        let errors = s.run(text, name: "lesson.utq") { _, o in for case .table in o.outputs { tables += 1 } }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
        #expect(tables == 1)
    }

    @Test(arguments: blocks)
    func everyExampleRuns(_ block: String) throws {
        let (s, dir) = try SessionTests.market()
        let errors = s.run(block, name: "docs/notebooks.md", keepGoing: true)
        for e in errors { Issue.record(Comment(rawValue: DiagnosticRenderer.render(e, showLocation: true))) }
        if block.contains(":record! class.md") {
            let md = try String(contentsOfFile: dir + "/class.md", encoding: .utf8)
            #expect(md.contains("## Morning\n\nThe lunchtime session was the busiest.\n\n```utq\ncount by hour | chart bar\n```"))
        }
    }
}
