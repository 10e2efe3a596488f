import Foundation
import Testing
@testable import UTQCore

/// Notebooks as Jupyter notebooks: nbformat 4.5 with a cell id each, Markdown for headings
/// and prose, code cells with tables as HTML, charts as SVG, notes as streams, errors as
/// errors; checked by nbformat's own validator.
@Suite struct IpynbTests {
    static let script = """
    ## The square
    # Counts by legend.
    load datasets/market.json
    count by legend
    count by hour | chart bar
    count by nothing
    """

    func notebook() throws -> [String: Any] {
        let s = Session(workingDirectory: Repo.path(""), defaultZone: .utc)
        let text = NotebookFormat.ipynb.render(s.notebook(Self.script, name: "square.utq"))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func cellsAndOutputsAreJupyters() throws {
        let nb = try notebook()
        #expect(nb["nbformat"] as? Int == 4 && nb["nbformat_minor"] as? Int == 5)
        let cells = try #require(nb["cells"] as? [[String: Any]])
        #expect(cells.map { $0["cell_type"] as? String ?? "" } == ["markdown", "markdown", "code", "code", "code", "code"])
        let ids = cells.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == cells.count)
        #expect(cells[0]["source"] as? [String] == ["# The square"])  // the first heading is the title
        func outputs(_ k: Int) -> [[String: Any]] { cells[k]["outputs"] as? [[String: Any]] ?? [] }
        #expect(outputs(2).first?["output_type"] as? String == "stream")
        let table = try #require(outputs(3).first)
        #expect(table["output_type"] as? String == "execute_result" && table["execution_count"] as? Int == 1)
        let data = try #require(table["data"] as? [String: Any])
        #expect((data["text/html"] as? [String])?.joined().contains(">Walking</td>") == true)
        #expect((data["text/plain"] as? [String])?.joined().contains("Walking") == true)
        let chart = try #require(outputs(4).first?["data"] as? [String: Any])
        #expect((chart["image/svg+xml"] as? [String])?.first?.hasPrefix("<svg") == true)
        let error = try #require(outputs(5).last)
        #expect(error["output_type"] as? String == "error" && (error["evalue"] as? String)?.hasPrefix("unknown column \"nothing\"") == true)
        let kernel = try #require((nb["metadata"] as? [String: Any])?["kernelspec"] as? [String: Any])
        #expect(kernel["name"] as? String == "utq")
    }

    /// Every lesson written as .ipynb validates against the nbformat 4.5 schema.
    @Test func everyLessonValidates() throws {
        guard let python = Oracle.python(with: "nbformat") else { Issue.record("no Python with nbformat (make oracle-deps)"); return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-ipynb-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        let lessons = try FileManager.default.contentsOfDirectory(atPath: Repo.path("examples/lessons")).filter { $0.hasSuffix(".utq") }.sorted()
        for name in lessons {
            let s = Session(workingDirectory: Repo.path(""), defaultZone: .utc)
            let text = try String(contentsOfFile: Repo.path("examples/lessons/" + name), encoding: .utf8)
            let path = dir.appendingPathComponent(name + ".ipynb").path
            try NotebookFormat.ipynb.render(s.notebook(text, name: "examples/lessons/" + name)).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let parts = python.split(separator: " ").map(String.init)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + ["-c", "import sys, nbformat\nfor f in sys.argv[1:]:\n    nbformat.validate(nbformat.read(f, as_version=4))\nprint(len(sys.argv) - 1)"] + paths
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "\(lessons.count)")
    }
}
