import Foundation
@testable import UTQCore

/// JSON arrays of records and NDJSON: `load` as a user runs it, then the record reader in
/// one piece and in three parts with tiny chunks, gzip-compressed in tiny chunks on every
/// core, and in one piece with every record read by the general parser (no templates), which
/// must all agree cell for cell.
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
    // The same text gzip-compressed, parsed in 64-byte chunks of whole lines on every core
    // (StreamChunks) when it is a record a line, in one part otherwise.
    let gz = Fuzz.gzip(Array(UnsafeBufferPointer(start: data, count: size)))
    let gzPath = gz.withUnsafeBufferPointer { Fuzz.file("input.json.gz", $0.baseAddress!, $0.count) }
    let d = Fuzz.expectingUserErrors("records compressed, in chunks") {
        try JSONRecordLoader.load(path: gzPath, name: "t", zone: .utc, chunkSize: 16, parts: 2)
    }
    switch (a, d) {
    case let (a?, d?): Fuzz.same(a.table, d.table, "records in one part and compressed in chunks")
    case (nil, nil): break
    default: fatalError("records: the plain reading failed and the compressed one in chunks did not, or the other way")
    }
    switch (a, c) {
    case let (a?, c?): Fuzz.same(a.table, c.table, "records with and without templates")
    case (nil, nil): break
    default: fatalError("records: the reading with templates failed and the one without did not, or the other way")
    }
    return 0
}
