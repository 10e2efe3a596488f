import Foundation
import Testing
@testable import UTQCore

/// `${name}` in a script, filled in from `--set name=value`.
@Suite struct ScriptVariablesTests {
    func fill(_ text: String, _ values: [String: String]) throws -> String {
        try ScriptVariables.substitute(text, values: values, name: "lesson.utq").text
    }

    @Test func namesAreReplacedEverywhere() throws {
        let values = ["city": "Prishtina", "file": "datasets/prishtina/routes.json", "min": "5"]
        let script = "## Bus lines of ${city}\nload ${file} as ${city}\nwhere stops > ${min} | select \"${city}\" as town"
        #expect(try fill(script, values) == "## Bus lines of Prishtina\nload datasets/prishtina/routes.json as Prishtina\nwhere stops > 5 | select \"Prishtina\" as town")
        let (_, used) = try ScriptVariables.substitute(script, values: values.merging(["unused": "x"]) { a, _ in a }, name: "t")
        #expect(used == ["city", "file", "min"])
        #expect(try fill("no names here", [:]) == "no names here")
        #expect(try fill("cost $5 and $1 | x", [:]) == "cost $5 and $1 | x")
    }

    @Test func doubledDollarIsALiteral() throws {
        #expect(try fill("a $${city} b ${city}", ["city": "Oslo"]) == "a ${city} b Oslo")
        #expect(try fill("$${not closed", [:]) == "${not closed")
    }

    @Test func anUnknownNameIsAnErrorAtItsLineAndColumn() {
        let script = "load datasets/market.json\nwhere legend = \"${legnd}\""
        do {
            _ = try fill(script, ["legend": "Bike"])
            Issue.record("no error")
        } catch let d as Diagnostic {
            #expect(d.message == "no value for ${legnd} — did you mean \"legend\"? (given: legend)")
            #expect(d.location == "lesson.utq:2:17")
            #expect(d.hint == "run it with --set legnd=VALUE, or write $${legnd} for the text ${legnd} itself")
            let text = DiagnosticRenderer.render(d, showLocation: true)
            #expect(text == """
            lesson.utq:2:17: error: no value for ${legnd} — did you mean "legend"? (given: legend)
              where legend = "${legnd}"
                              ^^^^^^^^
              hint: run it with --set legnd=VALUE, or write $${legnd} for the text ${legnd} itself

            """)
        } catch { Issue.record("\(error)") }
        #expect(throws: Diagnostic.self) { try fill("${city}", [:]) }
        #expect(throws: Diagnostic.self) { try fill("x ${not closed\ncount", ["not": "1"]) }
        #expect(throws: Diagnostic.self) { try fill("x ${two words}", [:]) }
    }

    @Test func assignmentsAreNameEqualsValue() throws {
        #expect(try ScriptVariables.assignment("city=Prishtina") == ("city", "Prishtina"))
        #expect(try ScriptVariables.assignment("q=a=b") == ("q", "a=b"))
        #expect(try ScriptVariables.assignment("empty=") == ("empty", ""))
        #expect(try ScriptVariables.assignment("by=legend, hour") == ("by", "legend, hour"))
        #expect(throws: Diagnostic.self) { try ScriptVariables.assignment("city") }
        #expect(throws: Diagnostic.self) { try ScriptVariables.assignment("1city=x") }
        #expect(throws: Diagnostic.self) { try ScriptVariables.assignment("city=a\nb") }
    }
}
