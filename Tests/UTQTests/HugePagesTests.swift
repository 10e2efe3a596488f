import Foundation
import Testing
@testable import UTQCore

/// Huge pages are asked for unless the machine hands the memory its processes free back to a
/// host (a bound virtio balloon and free page reporting), read from sysfs.
@Suite struct HugePagesTests {
    /// A sysfs tree with the page-reporting parameter, the balloon driver's folder and the
    /// entries in it.
    func tree(reporting: Bool, balloon: [String]?) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sys-\(UUID().uuidString)").path
        let fm = FileManager.default
        if reporting {
            try fm.createDirectory(atPath: root + "/module/page_reporting/parameters", withIntermediateDirectories: true)
            try "9\n".write(toFile: root + "/module/page_reporting/parameters/page_reporting_order", atomically: true, encoding: .utf8)
        }
        if let balloon {
            let driver = root + "/bus/virtio/drivers/virtio_balloon"
            try fm.createDirectory(atPath: driver, withIntermediateDirectories: true)
            for entry in balloon { try fm.createDirectory(atPath: driver + "/" + entry, withIntermediateDirectories: true) }
        }
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    @Test func aBalloonThatReportsFreedMemoryTurnsThemOff() throws {
        let cases: [(Bool, [String]?, Bool)] = [
            (true, ["bind", "uevent", "unbind", "virtio0"], true),   // this kind of virtual machine
            (true, ["bind", "uevent", "unbind"], false),             // the driver, no device bound
            (false, ["virtio0"], false),                             // a balloon, no reporting
            (true, nil, false),                                      // reporting built in, no balloon
            (false, nil, false),                                     // a machine of its own
        ]
        for (reporting, balloon, expected) in cases {
            let root = try tree(reporting: reporting, balloon: balloon)
            defer { try? FileManager.default.removeItem(atPath: root) }
            #expect(HugePages.hostTakesFreedMemory(root: root) == expected, "reporting \(reporting), balloon \(balloon ?? [])")
        }
        #expect(HugePages.wanted == !HugePages.hostTakesFreedMemory())
    }
}
