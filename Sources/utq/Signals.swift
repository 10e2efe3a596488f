import Foundation
import UTQCore

/// The one cancellation flag a Ctrl-C sets. It is created before the handler is installed
/// and never replaced, so the handler only ever does an atomic store.
let interruptFlag = CancellationFlag()
nonisolated(unsafe) var interruptCount: Int32 = 0

enum Signals {
    /// Ctrl-C cancels the running command (or the line being typed) instead of ending utq.
    /// No SA_RESTART: a read waiting for a key returns EINTR so the line editor gives up the line.
    static func installInterruptHandler() {
        _ = interruptFlag.isCancelled
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            interruptFlag.cancel()
            interruptCount &+= 1
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        unblock([SIGINT])
    }

    /// A program started by another (a test runner, an editor) inherits its blocked
    /// signals; Ctrl-C must still reach utq, so it unblocks SIGINT.
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// SIGTERM and SIGHUP: run `body` (save history), then end as the signal asks.
    nonisolated(unsafe) static var onTerminate: (() -> Void)? = nil

    static func installTerminateHandlers() {
        for sig in [SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { s in
                Signals.onTerminate?()
                signal(s, SIG_DFL)
                raise(s)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, nil)
        }
    }
}
