import ArgumentParser
import Foundation
import UTQCore

/// utq: a line-edited analysis shell for the data of people who study how a town moves.
/// `utq [SCRIPT …]` runs scripts or opens the prompt (the default subcommand, `run`);
/// `utq notebook SCRIPT -o PAGE` writes a notebook of a script.
struct UTQ: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "utq",
        abstract: "Count, chart and compare how a town moves: mapping entries, bus lines, GTFS feeds, ride logs.",
        discussion: """
        With no arguments utq opens a prompt (or reads commands from standard input when it is not a terminal).

        Examples:
          utq                                      open the prompt
          utq examples/tour.utq                    run a script
          utq -c 'load datasets/market.json; count by legend, hour'
          utq --step lesson.utq                    present a lesson, a command per Enter
          utq lesson.utq --set city=Prishtina      run it with ${city} as Prishtina
          utq notebook lesson.utq -o lesson.html   write a notebook of a script

        Running scripts takes -c TEXT, --echo, --keep-going, --step, --set NAME=VALUE and
        --interactive: see utq run --help (run is what utq does without a subcommand).
        """,
        version: "0.1.0",
        subcommands: [Run.self, NotebookCommand.self, LessonCommand.self, KernelCommand.self, ManualCommand.self],
        defaultSubcommand: Run.self
    )
}

/// ArgumentParser's `main`, but its help and messages are laid out by utq: made without
/// wrapping, then fitted to the terminal between words (TextWrap), so lists and examples
/// keep their shape at any width.
func main() -> Never {
    do {
        if let run = Run.quick(CommandLine.arguments.dropFirst()) {
            try run.run()
            exit(0)
        }
        var command = try UTQ.parseAsRoot()
        try command.run()
        exit(0)
    } catch {
        let code = UTQ.exitCode(for: error)
        let message = UTQ.fullMessage(for: error, columns: 10_000)
        if !message.isEmpty {
            let text = TextWrap.fit(message, width: Terminal.textWidth) + "\n"
            if code == .success { Terminal.out(text) } else { Terminal.err(text) }
        }
        exit(code.rawValue)
    }
}

main()
