import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import UTQCore

/// Tables no one would chart on purpose still give a drawing or a message: empty, one
/// row, nulls, negative, huge, NaN and infinite values, in every kind, as text and SVG.
@Suite struct ChartRobustnessTests {
    static func text(_ name: String, _ values: [String?]) -> Column {
        var dictionary: [String] = [], codes: [UInt32] = []
        for v in values {
            let s = v ?? ""
            if let i = dictionary.firstIndex(of: s) { codes.append(UInt32(i)) } else { codes.append(UInt32(dictionary.count)); dictionary.append(s) }
        }
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dictionary)),
                      validity: BehaviourMapper.bitmap(values.map { $0 != nil }))
    }

    static func numbers(_ name: String, _ values: [Double?]) -> Column {
        Column(name: name, storage: .double(values.map { $0 ?? 0 }), validity: BehaviourMapper.bitmap(values.map { $0 != nil }))
    }

    /// Tables with two keys (name, group), a value, positions and an angle.
    static func table(_ values: [Double?]) -> Table {
        let n = values.count
        return Table(name: "odd", columns: [
            text("name", (0..<n).map { "row \($0 % 3)" }),
            text("group", (0..<n).map { $0 % 2 == 0 ? "even" : nil }),
            numbers("value", values),
            numbers("x", values),
            numbers("y", values.reversed()),
            numbers("angle", values),
        ])
    }

    static let cases: [(String, [Double?])] = [
        ("empty", []),
        ("one row", [5]),
        ("all null", [nil, nil, nil]),
        ("zeros", [0, 0, 0, 0]),
        ("negative", [-3, -1.5, -200, -0.001]),
        ("mixed signs", [-5, 3, 0, 12, -7]),
        ("huge", [1e300, -1e300, 1.7e308, 2]),
        ("tiny", [1e-300, 2e-300, Double.leastNonzeroMagnitude]),
        ("not numbers", [.nan, 1, .infinity, -.infinity, 4]),
        ("only NaN", [.nan, .nan]),
    ]

    @Test(arguments: ChartKind.allCases)
    func oddTablesDrawOrSayWhy(_ kind: ChartKind) throws {
        for (label, values) in ChartRobustnessTests.cases {
            let table = ChartRobustnessTests.table(values)
            for (column, keys) in [("value", ["name"]), ("value", ["name", "group"]), (nil, nil)] as [(String?, [String]?)] {
                if kind == .heatmap && keys?.count != 2 { continue }
                var options = ChartOptions()
                if kind == .map { options.arrows = true }
                if kind == .hist { options.bins = 7 }
                let request = ChartRequest(kind: kind, column: kind == .map ? nil : column ?? (kind == .hist ? "value" : nil), options: options)
                for charset in [RenderOptions.Charset.unicode, .ascii] {
                    let render = RenderOptions(width: 60, height: 20, charset: charset)
                    let chart: Chart
                    do {
                        chart = try ChartBuilder.build(request, table: table, keyColumns: keys, render: render)
                    } catch let d as Diagnostic {
                        // A refusal is fine when it says what is wrong.
                        #expect(!d.message.isEmpty, "\(kind) on \(label)")
                        continue
                    }
                    let text = chart.text(render)
                    #expect(!text.isEmpty, "\(kind) on \(label)")
                    #expect(text.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 60 }, "\(kind) on \(label):\n\(text)")
                    if charset == .ascii { #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(kind) on \(label):\n\(text)") }
                    let svg = chart.svg()
                    #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
                    let parser = XMLParser(data: Data(svg.utf8))
                    let elements = ChartFileTests.Elements()
                    parser.delegate = elements
                    #expect(parser.parse(), "\(kind) on \(label): SVG not well formed")
                    // Every coordinate is a number a picture can use.
                    for attributes in elements.attributes {
                        for name in ["x", "y", "width", "height", "x1", "y1", "x2", "y2", "cx", "cy", "r"] {
                            guard let v = attributes[name], !v.hasSuffix("%") else { continue }
                            #expect(Double(v)?.isFinite == true, "\(kind) on \(label): \(name)=\(v)")
                        }
                        for name in ["points", "d"] {
                            guard let v = attributes[name]?.lowercased() else { continue }
                            #expect(!v.contains("nan") && !v.contains("inf"), "\(kind) on \(label): \(name)=\(v)")
                        }
                    }
                }
            }
        }
    }

    @Test func anEmptyResultIsAQuietNote() throws {
        let s = makeSession()
        try s.load("load datasets/market.json")
        var text = ""
        s.run("where legend = \"Unicycle\" | count by hour | chart bar", name: "<test>") { _, outcome in
            for case .chart(let c) in outcome.outputs { text = c.text }
            #expect(outcome.error == nil)
        }
        #expect(text == "(no rows to chart)\n")
    }

    @Test func scalesAreRound() {
        for (lo, hi) in [(0.0, 154.0), (0.0, 1.0), (-3.2, 17.9), (0.001, 0.0042), (5.0, 5.0), (0, 1e300), (-1e308, 1e308)] {
            let scale = NiceScale(covering: lo, hi, intervals: 5)
            #expect(scale.lo <= lo && scale.hi >= hi || !(hi - lo).isFinite, "\(lo) … \(hi)")
            let mantissa = scale.step / pow(10, log10(scale.step).rounded(.down))
            #expect([1, 2, 5, 10].contains { abs(mantissa - $0) < 1e-9 } || !(hi - lo).isFinite, "step \(scale.step)")
            let (fitted, per) = NiceScale.fitted(lo, hi, rows: 12)
            #expect((fitted.ticks.count - 1) * per <= 12)
        }
        #expect(NiceScale.step(for: 30.8) == 50)
        #expect(NiceScale.step(for: 0.013) == 0.02)
    }
}
