/// What running a command gives back. The engine never prints: clients (the REPL, batch
/// runs, notebooks, tests) decide where each kind of output goes.
public enum Output: Sendable {
    /// A table result, numbered so it can be reused as `$n`.
    case table(TableResult)
    /// Text that is the answer to the command (help, history): goes to standard output.
    case text(String)
    /// A chart: its drawing for the terminal, and the model to draw it again (SVG, notebooks).
    case chart(ChartOutput)
    /// A note about what happened (a load summary, a file written, a setting changed).
    case info(String)
    /// Something the user should know (a loader's warning).
    case warning(String)
}

public struct TableResult: Sendable {
    public var number: Int?
    public var table: Table
    /// Seconds the command took.
    public var elapsed: Double
    /// The name the rows were kept under (`let t = …`): a helper table, which a batch run
    /// does not print (its note says it was kept), so `> out.csv` holds only the answers.
    public var keptAs: String? = nil
}

/// The outcome of one command.
public struct CommandOutcome: Sendable {
    public var outputs: [Output] = []
    public var error: Diagnostic?
    /// `quit` was asked for.
    public var quit = false
    /// The command was stopped (Ctrl-C) before it finished; nothing it would have changed did.
    public var cancelled = false
    /// Parts of the command's time that a backend measured (`in db`), for `set timer on`.
    public var timings: [(label: String, seconds: Double)] = []
    /// The text is help (`help`, `:help`): a terminal wraps it to its width, and pages it
    /// when it is taller than the window.
    public var isHelp = false
    /// Commands about the recording itself (`:record off`) are not part of it.
    var keepOutOfNotebook = false

    public var succeeded: Bool { error == nil }
}
