import ArgumentParser
import Foundation
import UTQCore
import UTQPostgres

/// `utq kernel`: one session that speaks JSON lines on standard input and output, for the
/// Jupyter kernel (jupyter/utq_kernel), which turns the lines into Jupyter messages.
/// A request is one line: {"id": 1, "op": "execute", "code": "…"}; replies carry its id.
/// Ctrl-C (SIGINT, which the Jupyter kernel forwards) cancels the running command.
struct KernelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernel",
        abstract: "Serve one session as JSON lines on standard input and output, for the utq Jupyter kernel.",
        discussion: """
        Requests, one JSON object per line, each with an "id" that its replies carry:
          {"op": "execute", "code": TEXT}         replies {"output": …} per output, then {"done": true, "status": …}
          {"op": "complete", "code": TEXT, "cursor_pos": N}
          {"op": "inspect", "code": TEXT, "cursor_pos": N}
          {"op": "is_complete", "code": TEXT}
        Outputs are Jupyter's (stream, execute_result, display_data, error); cursor positions
        count Unicode code points, as Jupyter's do. SIGINT cancels the running command.
        """)

    @OptionGroup var size: WidthOption

    func run() throws {
        // Jupyter starts kernels with SIGINT ignored; utq takes it to cancel a command.
        Signals.installInterruptHandler()
        let session = Session(cancel: interruptFlag)
        session.databaseConnector = PostgresConnector()
        MemoryTuning.follow(session)
        session.files.searchesFoldersAbove = true
        session.settings.render = RenderOptions(width: size.width, height: 24, maxRows: 40, charset: .unicode, color: false)
        let server = KernelServer(session: session, send: sendLine)
        var input = LineReader(fd: 0)
        while let line = input.next() {
            guard !line.allSatisfy({ $0 == " " }) else { continue }
            server.handle(line)
        }
    }
}

/// Writes one reply as a line on standard output, all of it even when a signal interrupts.
func sendLine(_ message: [String: Any]) {
    guard var data = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]) else { return }
    data.append(0x0A)
    data.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(1, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

/// Lines from a file descriptor, read again after a signal interrupts the read (a plain
/// readLine ends at the first EINTR, which a Ctrl-C between cells would cause).
struct LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> String? {
        while true {
            if let k = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<k], as: UTF8.self)
                buffer.removeSubrange(...k)
                return line
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = [] }
                return String(decoding: buffer, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
            if n < 0 { if errno == EINTR { continue }; ended = true; continue }
            if n == 0 { ended = true; continue }
            buffer += chunk[..<n]
        }
    }
}
