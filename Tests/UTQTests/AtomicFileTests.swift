import Foundation
import Testing
@testable import UTQCore

/// Files utq writes (save, charts, :save, notebooks, history) are replaced whole or not at
/// all: a replaced file keeps its mode, a link is written through, and a utq killed while
/// writing leaves the old file or the new one, never a part, and no temporary file.
@Suite struct AtomicFileTests {
    func folder(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-atomic-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aReplacedFileKeepsItsModeAndALinkIsWrittenThrough() throws {
        let dir = try folder("mode")
        let file = dir + "/private.csv"
        try AtomicFile.write(Array("old\n".utf8), to: file, replace: false)
        chmod(file, 0o600)
        try AtomicFile.write(Array("new\n".utf8), to: file, replace: true)
        var st = stat()
        #expect(stat(file, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new\n")
        let link = dir + "/link.csv"
        symlink("private.csv", link)
        try AtomicFile.write(Array("through\n".utf8), to: link, replace: true)
        #expect(lstat(link, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "through\n")
        // A new file gets the mode the umask allows; nothing else is left in the folder.
        try AtomicFile.write(Array("x".utf8), to: dir + "/fresh.csv", replace: false)
        #expect(stat(dir + "/fresh.csv", &st) == 0 && st.st_mode & 0o777 == 0o666 & ~AtomicFile.currentUmask())
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["fresh.csv", "link.csv", "private.csv"])
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write([], to: file, replace: false) }
    }

    @Test func aLeftoverOfAKilledWriteIsRemovedByTheNextWrite() throws {
        let dir = try folder("leftover")
        // A process that has ended: a pid that cannot be alive.
        let stale = dir + "/.out.csv.utq-999999999-abcdef"
        FileManager.default.createFile(atPath: stale, contents: Data("part".utf8))
        try AtomicFile.write(Array("whole\n".utf8), to: dir + "/out.csv", replace: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.csv"])
    }

    @Test func killedWhileSavingLeavesTheOldOrTheNewFile() throws {
        let dir = try folder("kill")
        let out = dir + "/rows.csv"
        let old = "old\n"
        try old.write(toFile: out, atomically: false, encoding: .utf8)
        // A save large enough to take a while, killed at a different moment each time.
        let script = dir + "/save.utq"
        try "load datasets/rides.csv\nselect * | let a = ride_id * 2 | save! \(out)\n".write(toFile: script, atomically: false, encoding: .utf8)
        var sawNew = false, sawOld = false
        for round in 0..<12 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Repo.utqBinary)
            p.arguments = [script]
            p.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(100_000 + round * 25_000))
            // SIGKILL can be neither caught nor cleaned up after; SIGTERM is, and must be too.
            kill(p.processIdentifier, round % 2 == 0 ? SIGKILL : SIGTERM)
            p.waitUntilExit()
            let text = try String(contentsOfFile: out, encoding: .utf8)
            if text == old { sawOld = true } else {
                #expect(text.hasPrefix("ride_id,") && text.hasSuffix("\n") && text.split(separator: "\n").count > 1000, "round \(round): a part of a file")
                sawNew = true
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }.isEmpty, "round \(round): a temporary file is left")
            try old.write(toFile: out, atomically: false, encoding: .utf8)
        }
        _ = (sawNew, sawOld)
    }
}
