import Foundation
@testable import UTQCore

/// JSON arrays of records and NDJSON: `load` as a user runs it, then the record reader in
/// one piece and in three parts with tiny chunks, which must agree cell for cell.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.file("input.json", data, size)
    if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    let a = Fuzz.expectingUserErrors("records in one part") {
        try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1)
    }
    let b = Fuzz.expectingUserErrors("records in parts") {
        try JSONRecordLoader.load(path: path, name: "t", zone: .utc, chunkSize: 16, parts: 3)
    }
    switch (a, b) {
    case let (a?, b?): Fuzz.same(a.table, b.table, "records in one part and in three")
    case (nil, nil): break
    default: fatalError("records: one reading failed and the other did not")
    }
    return 0
}
