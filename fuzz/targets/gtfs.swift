import Foundation
@testable import UTQCore

/// GTFS feeds: the input as a zip archive, and as the stop times of an otherwise good feed
/// (the largest file, where cells cross-refer to stops and trips), each loaded as a user does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGTFS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let zip = Fuzz.file("feed.zip", data, size)
    if let loaded = Fuzz.expectingUserErrors("zip", { try Loaders.load(LoadRequest(path: zip, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    let folder = Fuzz.scratch + "/feed"
    let fm = FileManager.default
    if !fm.fileExists(atPath: folder) {
        try? fm.copyItem(atPath: Fuzz.root + "/datasets/gtfs/demo-transit", toPath: folder)
    }
    _ = Fuzz.file("feed/stop_times.txt", data, size)
    if let loaded = Fuzz.expectingUserErrors("folder", { try Loaders.load(LoadRequest(path: folder, zone: .utc)) }) {
        loaded.tables.forEach(Fuzz.show)
    }
    return 0
}
