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

    /// SIGTERM and SIGHUP: run this (save history), then end as the signal asks.
    nonisolated(unsafe) static var onTerminate: (() -> Void)? = nil

    /// SIGTERM and SIGHUP are blocked in every thread from the start (threads made later
    /// inherit the mask) and taken by one thread of their own with sigwait. That thread may
    /// save the history with ordinary code, which a signal handler may not (it allocates and
    /// takes locks that the interrupted code may hold); then it ends utq as the signal asks.
    static func takeTerminateSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        Thread.detachNewThread {
            // Every other signal goes to the threads that expect it. libedit's handlers for a
            // stop, a continue and a resize act on the line being edited and tell its read why
            // it was broken: run here, a Ctrl-Z then `fg` could leave the read on the main
            // thread without the reason, and libedit gave up the line as if Ctrl-C was pressed.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigaddset(&set, SIGHUP)
            var sig: Int32 = 0
            guard sigwait(&set, &sig) == 0 else { return }
            Signals.onTerminate?()
            // A file being saved stays as it was; its temporary file goes.
            TemporaryFiles.shared.removeAll()
            signal(sig, SIG_DFL)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            raise(sig)
        }
    }
}
