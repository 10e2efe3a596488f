import Foundation
@testable import UTQCore

/// JSON arrays of records and NDJSON: `load` as a user runs it, then the record reader in
/// one piece and in three parts with tiny chunks, and in one piece with every record read by
/// the general parser (no templates), which must all agree cell for cell.
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
    let c = Fuzz.expectingUserErrors("records without templates") {
        try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1, cuts: nil, templates: false)
    }
    switch (a, b) {
    case let (a?, b?): Fuzz.same(a.table, b.table, "records in one part and in three")
    case (nil, nil): break
    default: fatalError("records: one reading failed and the other did not")
    }
    switch (a, c) {
    case let (a?, c?): Fuzz.same(a.table, c.table, "records with and without templates")
    case (nil, nil): break
    default: fatalError("records: the reading with templates failed and the one without did not, or the other way")
    }
    return 0
}
