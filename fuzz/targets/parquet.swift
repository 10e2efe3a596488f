import Foundation
@testable import UTQCore

/// Parquet: `load` as a user runs it, in UTC and in a zone with summer time (wall-clock times
/// are placed in it), within 256 MB; a file that loads is written back with utq's writer and
/// read again, which must give the same table cell for cell.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParquet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.file("input.parquet", data, size)
    let limit = 256 << 20
    for zone in [ZoneRules.utc, ZoneRules.named("Europe/Oslo")!] {
        guard let loaded = Fuzz.expectingUserErrors("load", {
            try Loaders.load(LoadRequest(path: path, zone: zone, memoryLimit: limit))
        }) else { continue }
        loaded.tables.forEach(Fuzz.show)
        guard zone.identifier == "UTC", let table = loaded.tables.first else { continue }
        let copy = Fuzz.scratch + "/copy.parquet"
        let fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot write \(copy)")
        do { try ParquetWriter.write(table, to: fd) } catch { fatalError("parquet: writing a loaded table failed: \(error)") }
        close(fd)
        guard let again = Fuzz.expectingUserErrors("load the copy", { try Loaders.load(LoadRequest(path: copy, zone: zone, memoryLimit: limit)) }) else {
            fatalError("parquet: utq cannot read the file it wrote")
        }
        Fuzz.same(table, again.tables[0], "parquet written and read again")
    }
    return 0
}
