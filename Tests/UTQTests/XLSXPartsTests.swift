import Foundation
import Testing
@testable import UTQCore

/// The pieces of the workbook reader on their own: the XML tokenizer, shared strings, and
/// which number formats are dates.
@Suite struct XLSXPartsTests {
    /// The tokens of a document as text: `<name a=v>`, `</name>`, `"text"`.
    static func tokens(_ xml: String) throws -> [String] {
        try Array(xml.utf8).withUnsafeBytes { raw in
            var x = XMLScanner(raw)
            var out: [String] = []
            while true {
                switch try x.next() {
                case .start:
                    out.append("<" + x.string(x.name) + x.attributes.map { " \(x.string($0.name))=\(x.value($0))" }.joined() + ">")
                case .end: out.append("</" + x.string(x.name) + ">")
                case .text:
                    var bytes: [UInt8] = []
                    x.appendText(to: &bytes)
                    out.append("\"" + String(decoding: bytes, as: UTF8.self) + "\"")
                case .endOfDocument: return out
                }
            }
        }
    }

    @Test func elementsAttributesTextEntitiesAndCDATA() throws {
        let xml = """
            <?xml version="1.0"?><!-- a comment --><!DOCTYPE a [<!ELEMENT a ANY>]>\
            <x:a k='1' x:id="r&amp;2"><b/>t &lt;&#65;&#x42;&quot;&apos;&gt; &bogus; &<![CDATA[<raw>&amp;]]></x:a>
            """
        #expect(try Self.tokens(xml) == ["<a k=1 id=r&2>", "<b>", "</b>", "\"t <AB\"'> &bogus; &\"", "\"<raw>&amp;\"", "</a>"])
    }

    @Test func lineEndsAreReadAsXMLReadsThem() throws {
        #expect(try Self.tokens("<t>a\r\nb\rc&#13;d</t>") == ["<t>", "\"a\nb\nc\rd\"", "</t>"])
        #expect(try Self.tokens("<t a=\"x\r\ny\tz\"/>") == ["<t a=x y z>", "</t>"])
        #expect(try Self.tokens("<t><![CDATA[a\r\nb]]></t>") == ["<t>", "\"a\nb\"", "</t>"])
    }

    @Test func malformedDocumentsThrowAndSayWhere() {
        for bad in ["<a><b></a>", "<a", "<a x=1></a>", "<a x=\"1></a>", "</a>", "<a><!-- never closed", "<a>", "<a><![CDATA[x</a>", "< a/>"] {
            #expect(throws: XMLScanner.Malformed.self, "\(bad)") { try Self.tokens(bad) }
        }
        #expect(throws: Never.self) { try Self.tokens("") }
    }

    @Test func skipElementSkipsItsContentAndSelfClosingOnes() throws {
        try Array("<r><a><b>x</b><c/></a><d/></r>".utf8).withUnsafeBytes { raw in
            var x = XMLScanner(raw)
            #expect(try x.next() == .start && x.isName("r"))
            #expect(try x.next() == .start && x.isName("a"))
            try x.skipElement()
            #expect(try x.next() == .start && x.isName("d"))
            #expect(x.depth == 2)
            try x.skipElement()
            #expect(try x.next() == .end && x.isName("r"))
            #expect(try x.next() == .endOfDocument)
        }
    }

    @Test func sharedStringsJoinRunsAndLeavePhoneticGuidesOut() throws {
        let xml = """
            <sst><si><t>plain</t></si><si><r><t>a</t></r><r><rPr><b/></rPr><t xml:space="preserve"> b</t></r></si>\
            <si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh></si><si/><si><t>x_x000A_y _x005F_x0041_ _x00zz_</t></si></sst>
            """
        let texts = try Array(xml.utf8).withUnsafeBytes { raw in
            var x = XMLScanner(raw)
            return try XLSXSharedStrings.parse(&x, cancel: nil)
        }
        #expect((0..<texts.count).map(texts.string) == ["plain", "a b", "漢字", "", "x\ny _x0041_ _x00zz_"])
    }

    @Test func numberFormatsThatAreDatesAndTimes() {
        let cases: [(String, XLSXNumberKind)] = [
            ("General", .plain), ("0.00", .plain), ("#,##0", .plain), ("0%", .plain), ("@", .plain), ("0.00E+00", .plain),
            ("yyyy-mm-dd", .date), ("d/m/yyyy", .date), ("mmm-yy", .date), ("mmmm", .date), ("dd/mm/yyyy hh:mm", .dateTime),
            ("yyyy-mm-dd\\ hh:mm:ss", .dateTime), ("h:mm", .time), ("hh:mm:ss", .time), ("[$-409]h:mm AM/PM;@", .time),
            ("mm:ss", .time), ("[h]:mm:ss", .elapsed), ("[mm]:ss", .elapsed), ("\"Day \"0", .plain), ("0\" days\"", .plain),
            ("[Red]0.0;[Blue]-0.0", .plain), ("\\d0", .plain), ("_(* #,##0_)", .plain), ("0;\"yes\";\"no\";\"dd\"", .plain),
            ("#,##0.00 [$€-407]", .plain), ("[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy", .date),
        ]
        for (code, kind) in cases { #expect(XLSXStyles.classify(code) == kind, "\(code)") }
        #expect(XLSXStyles.builtIn(14) == .date && XLSXStyles.builtIn(22) == .dateTime && XLSXStyles.builtIn(21) == .time)
        #expect(XLSXStyles.builtIn(46) == .elapsed && XLSXStyles.builtIn(0) == .plain && XLSXStyles.builtIn(49) == .plain)
    }

    @Test func cellReferencesAndSheetNamesInMessages() throws {
        try Array("A1 XFD1048576 b7 AAAA1 1A A0".utf8).withUnsafeBytes { raw in
            let x = XMLScanner(raw)
            #expect(XLSXSheetReader.reference(x, 0..<2)! == (0, 1))
            #expect(XLSXSheetReader.reference(x, 3..<13)! == (16_383, 1_048_576))
            #expect(XLSXSheetReader.reference(x, 14..<16)! == (1, 7))
            #expect(XLSXSheetReader.reference(x, 17..<22) == nil)
            #expect(XLSXSheetReader.reference(x, 23..<25) == nil)
            #expect(XLSXSheetReader.reference(x, 26..<28) == nil)
        }
        #expect(XLSXCellNames(sheet: "Sheet1").cell(row: 7, column: 2) == "Sheet1!C7")
        #expect(XLSXCellNames(sheet: "People Staying").cell(row: 2, column: 27) == "'People Staying'!AB2")
        #expect(XLSXCellNames(sheet: "Bob's").cell(row: 1, column: 0) == "'Bob''s'!A1")
        #expect(XLSXCellNames.letters(16_383) == "XFD")
    }
}
