import Foundation
@testable import UTQCore

/// Delimited text: `load` as a user runs it (format detection included), then the reader
/// in one piece and in three parts with tiny chunks, which must agree cell for cell.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.file("input.csv", data, size)
    if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    var one = CSVOptions()
    one.parts = 1
    var split = CSVOptions()
    split.parts = 3
    split.chunkSize = 16
    let a = Fuzz.expectingUserErrors("csv in one part") { try CSVLoader.load(path: path, name: "t", zone: .utc, options: one) }
    let b = Fuzz.expectingUserErrors("csv in parts") { try CSVLoader.load(path: path, name: "t", zone: .utc, options: split) }
    switch (a, b) {
    case let (a?, b?):
        Fuzz.same(a.table, b.table, "csv in one part and in three")
        // Later parts count lines from their cut; warnings must still name the file's lines.
        if a.warnings != b.warnings { fatalError("csv: warnings differ in parts: \(a.warnings) vs \(b.warnings)") }
    case (nil, nil): break
    default: fatalError("csv: one reading failed and the other did not")
    }
    return 0
}
