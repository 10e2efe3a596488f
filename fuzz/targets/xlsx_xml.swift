import Foundation
@testable import UTQCore

/// The XML tokenizer of the workbook reader, on any bytes: it ends (or throws Malformed)
/// without reading past the input, every start tag it gives is closed by an end tag of the
/// same name, and decoded text is what it says. Then the same bytes as shared strings, as
/// styles and as a number format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXLSXXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    bytes.withUnsafeBytes { raw in
        var x = XMLScanner(raw)
        var names: [String] = []
        var text: [UInt8] = []
        do {
            loop: while true {
                let token = try x.next()
                switch token {
                case .start:
                    names.append(x.string(x.name))
                    for a in x.attributes {
                        precondition(a.name.upperBound <= size && a.value.upperBound <= size, "an attribute past the input")
                        _ = x.value(a)
                    }
                case .end:
                    guard let open = names.popLast() else { fatalError("an end tag with no start tag given") }
                    if open != x.string(x.name) { fatalError("<\(open)> closed by </\(x.string(x.name))>") }
                case .text:
                    precondition(x.text.upperBound <= size, "text past the input")
                    text.removeAll(keepingCapacity: true)
                    x.appendText(to: &text)
                    if !x.textIsCDATA && !x.textNeedsDecoding && text.count != x.text.count { fatalError("plain text changed") }
                    if text.contains(0x0D) && !x.textNeedsDecoding { fatalError("a carriage return left in text") }
                case .endOfDocument:
                    if !names.isEmpty { fatalError("the document ended with <\(names.last!)> open") }
                    break loop
                }
                if x.depth != names.count { fatalError("depth \(x.depth) but \(names.count) open") }
            }
        } catch is XMLScanner.Malformed {
        } catch {
            fatalError("the tokenizer threw \(type(of: error)): \(error)")
        }
        var s = XMLScanner(raw)
        _ = try? XLSXSharedStrings.parse(&s, cancel: nil)
        var t = XMLScanner(raw)
        _ = try? XLSXStyles.parse(&t)
        var u = XMLScanner(raw)
        _ = try? u.next()
        if (try? u.next()) == .start { _ = try? u.skipElement() }
    }
    _ = XLSXStyles.classify(String(decoding: bytes.prefix(256), as: UTF8.self))
    var unescaped: [UInt8] = []
    XLSXTexts.unescape(bytes, into: &unescaped)
    return 0
}
