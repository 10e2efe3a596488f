import Foundation
@testable import UTQCore

/// NVDB road-object responses: the reader on any parsed document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNVDB(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let doc = Fuzz.expectingUserErrors("parse", { try parseJSONDocument(bytes: bytes, path: "nvdb.json") }) else { return 0 }
    _ = NVDB.isResponse(doc)
    if let (tables, _) = Fuzz.expectingUserErrors("nvdb", { try NVDB.load(doc, name: "nvdb", path: "nvdb.json") }) {
        tables.forEach(Fuzz.show)
    }
    return 0
}
