import Foundation
import Testing
@testable import UTQCore

/// What `make install` writes besides the binary: the man page made from the help, and the
/// shell completions; and `utq kernel` answering without Jupyter.
@Suite struct InstallTests {
    @Test func theManPageNamesEveryVerbAndOption() throws {
        let r = try runUTQ(["manual"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(".TH UTQ 1"))
        for verb in Verbs.all {
            let usage = verb.usage.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            #expect(r.stdout.contains(".B " + usage), "\(verb.name)")
        }
        for option in ["\\-\\-keep\\-going", "\\-\\-step", "\\-\\-no\\-answers", "\\-\\-set"] {
            #expect(r.stdout.contains(option), "\(option)")
        }
        // roff would take a line starting with a dot as a request.
        let lines = r.stdout.split(separator: "\n")
        let requests = ["TH", "SH", "SS", "nf", "fi", "TP", "B ", "br", "I "]
        let stray = lines.filter { line in line.hasPrefix(".") && !requests.contains { line.hasPrefix("." + $0) } }
        #expect(stray.isEmpty, "\(stray)")
    }

    @Test func completionScriptsForThreeShells() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try runUTQ(["--generate-completion-script", shell])
            #expect(r.status == 0 && r.stdout.contains("notebook"), "\(shell)")
        }
    }

    @Test func theKernelModeAnswersJSONLines() throws {
        let requests = [
            ##"{"id": 1, "op": "execute", "code": "load datasets/market.json\ncount by legend"}"##,
            ##"{"id": 2, "op": "complete", "code": "# é\ncount by leg", "cursor_pos": 16}"##,
            ##"{"id": 3, "op": "is_complete", "code": "market |"}"##,
            ##"{"id": 4, "op": "execute", "code": "count by nothing"}"##,
        ].joined(separator: "\n") + "\n"
        let r = try runUTQ(["kernel"], stdin: requests)
        let replies = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        func of(_ id: Int) -> [[String: Any]] { replies.filter { $0["id"] as? Int == id } }
        let outputs = of(1).compactMap { $0["output"] as? [String: Any] }
        #expect(outputs.map { $0["output_type"] as? String } == ["stream", "execute_result"])
        let html = (outputs.last?["data"] as? [String: Any])?["text/html"] as? String
        #expect(html?.contains(">Walking</td>") == true)
        #expect(of(1).last?["status"] as? String == "ok")
        // "# é\n" is four code points: the word starts at 13, the cursor is at 16.
        #expect(of(2).first?["cursor_start"] as? Int == 13 && of(2).first?["matches"] as? [String] == ["legend"])
        #expect(of(3).first?["status"] as? String == "incomplete")
        #expect(of(4).last?["status"] as? String == "error")
        let error = of(4).compactMap { $0["output"] as? [String: Any] }.first
        #expect((error?["traceback"] as? [String])?.contains { $0.contains("^") } == true)
    }
}
