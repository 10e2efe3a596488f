import Foundation
@testable import UTQCore

/// Wide delimited text: the first two bytes of the input say how many columns the header
/// has (up to 65,535, named c0, c1, …), and the rest are the rows. A header of tens of
/// thousands of columns over a few bytes of rows must load, or be refused with a message,
/// within the memory the fuzzer allows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWideCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let width = Int(data[0]) << 8 | Int(data[1])
    var text = Array((0..<max(1, width)).map { "c\($0)" }.joined(separator: ",").utf8)
    text.append(0x0A)
    text.append(contentsOf: UnsafeBufferPointer(start: data + 2, count: size - 2))
    let path = text.withUnsafeBufferPointer { Fuzz.file("wide.csv", $0.baseAddress!, $0.count) }
    if let loaded = Fuzz.expectingUserErrors("load", { try Loaders.load(LoadRequest(path: path, zone: .utc)) }) {
        for t in loaded.tables where t.columns.count <= 64 { Fuzz.show(t) }
    }
    return 0
}
