import Foundation
@testable import UTQCore

/// GTFS-Realtime feeds: the input as a .pb file, loaded as a user does. The input gets the
/// header a feed begins with (so the sniffing lets it through to the decoder and the tables),
/// and is also loaded as it is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGTFSRealtime(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // FeedMessage.header = { gtfs_realtime_version: "2.0" }, then the input as more fields.
    let header: [UInt8] = [0x0A, 0x05, 0x0A, 0x03, 0x32, 0x2E, 0x30]
    for (name, input) in [("feed.pb", header + bytes), ("raw.pb", bytes)] {
        let path = Fuzz.file(name, input, input.count)
        if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
            loaded.tables.forEach(Fuzz.show)
        }
    }
    return 0
}
