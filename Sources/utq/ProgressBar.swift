import Foundation
import UTQCore

/// A progress bar on standard error for loads that take longer than a second, drawn only when
/// standard error is a terminal. It watches the session's progress counter from a timer.
final class ProgressBar: @unchecked Sendable {
    private let progress: LoadProgress
    private let timer: DispatchSourceTimer
    private var shownSince: DispatchTime?
    private var drawn = false
    private let started = DispatchTime.now()
    private let lock = NSLock()

    /// Starts watching, or returns nil when there is no terminal to draw on.
    static func watch(_ session: Session) -> ProgressBar? {
        guard Terminal.stderrIsTTY else { return nil }
        return ProgressBar(progress: session.progress)
    }

    private init(progress: LoadProgress) {
        self.progress = progress
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(1000), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    private func tick() {
        lock.lock()
        defer { lock.unlock() }
        guard let (what, done, total) = progress.snapshot, total > 0 else { return }
        let width = max(10, min(40, Terminal.width - 40))
        let fraction = min(1, Double(done) / Double(total))
        let filled = Int(fraction * Double(width))
        let ascii = Environment.value("TERM") == "dumb"
        let bar = String(repeating: ascii ? "#" : "━", count: filled) + String(repeating: ascii ? "-" : "─", count: width - filled)
        let name = (what as NSString).lastPathComponent
        let text = "\rloading \(name) \(bar) \(Int(fraction * 100))%  \(megabytes(done)) of \(megabytes(total)) "
        Terminal.err(text)
        drawn = true
    }

    private func megabytes(_ n: Int) -> String {
        n < 1 << 20 ? "\(n / 1024) KB" : "\(n >> 20) MB"
    }

    /// Stops and clears the line.
    func finish() {
        timer.cancel()
        lock.lock()
        defer { lock.unlock() }
        if drawn { Terminal.err("\r\u{1B}[2K") }
    }
}
