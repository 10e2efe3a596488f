import Foundation
@testable import UTQCore

/// JSON documents read whole: the parser, `load` with its recognisers, `load … at PATH`,
/// and the compact text of the parsed value, which must parse back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let doc = Fuzz.expectingUserErrors("parse", { try parseJSONDocument(bytes: bytes, path: "input.json") }) else { return 0 }
    let text = doc.text
    guard let again = Fuzz.expectingUserErrors("parse again", { try parseJSONDocument(bytes: Array(text.utf8), path: "again.json") }) else {
        fatalError("the text of a parsed document does not parse: \(text.prefix(200))")
    }
    if again.text != text { fatalError("a document's text changes when read back: \(text.prefix(200))") }
    let path = Fuzz.file("input.json", data, size)
    for at in [nil, "items", "data.rows", "a.b.c"] as [String?] {
        if let loaded = Fuzz.expectingUserErrors("load at \(at ?? "-")", { try Loaders.load(LoadRequest(path: path, at: at, zone: .utc)) }) {
            loaded.tables.forEach(Fuzz.show)
        }
    }
    return 0
}
