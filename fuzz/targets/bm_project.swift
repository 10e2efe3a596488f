import Foundation
@testable import UTQCore

/// Behaviour Mapper projects: the project reader on any parsed document (not only those
/// that look like projects), then `load` as a user runs it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBehaviourMapperProject(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let doc = Fuzz.expectingUserErrors("parse", { try parseJSONDocument(bytes: bytes, path: "project.json") }) else { return 0 }
    _ = BehaviourMapper.isProject(doc)
    if let (project, _) = Fuzz.expectingUserErrors("project", { try BehaviourMapper.load(project: doc, name: "market", path: "project.json") }) {
        Fuzz.show(project.entries)
        Fuzz.show(project.legends)
    }
    let path = Fuzz.file("project.json", data, size)
    if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    return 0
}
