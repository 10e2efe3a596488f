import Foundation
@testable import UTQCore

/// Behaviour Mapper CSV exports: the export reader on any text (not only what looks like
/// an export), then `load` as a user runs it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBehaviourMapperExport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.file("export.csv", data, size)
    let head = Array(UnsafeBufferPointer(start: data, count: min(size, 65536)))
    _ = BehaviourMapperExport.looksLike(head)
    if let loaded = Fuzz.expectingUserErrors("export", { try BehaviourMapperExport.load(path: path, name: "export", head: head, cancel: nil) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    return 0
}
