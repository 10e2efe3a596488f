import Foundation
@testable import UTQCore

/// Parquet: `load` as a user runs it, in UTC and in a zone with summer time (wall-clock times
/// are placed in it), within 256 MB; a file that loads is written back with utq's writer and
/// read again, which must give the same table cell for cell. Loaded as a large file is (from
/// its footer, each column read later), it gives the same schema and, read whole, the same
/// table, or an error a user can read when the whole load refuses it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParquet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = Fuzz.file("input.parquet", data, size)
    let limit = 256 << 20
    for zone in [ZoneRules.utc, ZoneRules.named("Europe/Oslo")!] {
        let loaded = Fuzz.expectingUserErrors("load", {
            try Loaders.load(LoadRequest(path: path, zone: zone, memoryLimit: limit))
        })
        var later = LoadRequest(path: path, zone: zone, memoryLimit: limit)
        later.deferParquetAbove = 0
        if let deferred = Fuzz.expectingUserErrors("load from the footer", { try Loaders.load(later) })?.deferred.first {
            let whole = Fuzz.expectingUserErrors("read every column later", { try deferred.whole() })
            if let table = loaded?.tables.first {
                guard let whole else { fatalError("parquet: the whole load reads it, and reading its columns later fails") }
                precondition(Schema(table).fields == deferred.schema.fields, "parquet: the footer's schema is not the whole load's")
                Fuzz.same(table, whole, "parquet read whole and read later")
            }
        }
        guard let loaded else { continue }
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
