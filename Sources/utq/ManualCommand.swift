import ArgumentParser
import Foundation
import UTQCore

/// `utq manual`: the man page, made from the same registries as `help` and `--help`, so
/// it never falls behind them. `make install` writes it to share/man/man1/utq.1.
struct ManualCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual",
        abstract: "Print utq's man page (roff), made from its help.",
        shouldDisplay: false)

    func run() throws {
        Terminal.out(ManualPage.text())
    }
}

enum ManualPage {
    static func text() -> String {
        var page = ".TH UTQ 1 \"\" \"utq \(UTQ.configuration.version)\" \"User Commands\"\n"
        page += ".SH NAME\nutq \\- \(roff(UTQ.configuration.abstract))\n"
        page += ".SH SYNOPSIS\n.B utq\n[\\fISCRIPT\\fR ...] [\\fB\\-c\\fR \\fITEXT\\fR] [\\fIOPTIONS\\fR]\n.br\n"
        page += ".B utq notebook\n\\fISCRIPT\\fR \\fB\\-o\\fR \\fIFILE\\fR\n.br\n.B utq lesson\n[\\fISCRIPT\\fR]\n"
        page += ".SH DESCRIPTION\n" + preformatted(UTQ.configuration.discussion)
        page += ".SH OPTIONS\n" + preformatted(Run.helpMessage(columns: 100))
        for sub in [NotebookCommand.self, LessonCommand.self] as [ParsableCommand.Type] {
            page += ".SS utq \(sub.configuration.commandName ?? "")\n" + preformatted(sub.helpMessage(columns: 100))
        }
        page += ".SH LANGUAGE\nA line is a pipeline: a table, then verbs joined by |. "
            + "Type \\fBhelp\\fR at the prompt for the list, \\fBhelp\\fR \\fIVERB\\fR for one verb with examples.\n"
        for category in VerbSpec.Category.allCases {
            let verbs = Verbs.all.filter { $0.category == category }
            guard !verbs.isEmpty else { continue }
            page += ".SS \(roff(category.rawValue))\n"
            for verb in verbs {
                page += ".TP\n.B \(roff(verb.usage))\n\(roff(verb.summary))\n"
            }
        }
        page += ".SH TOPICS\n\\fBhelp\\fR \\fITOPIC\\fR explains: "
            + Help.topicNames.filter { name in !Verbs.all.contains { $0.name == name } }.map(roff).joined(separator: ", ") + ".\n"
        page += ".SH FILES\n.TP\n.I ~/.utq_history\nLines typed at the prompt (\\fBUTQ_HISTORY\\fR names another file; empty keeps none).\n"
        page += ".SH SEE ALSO\nThe README and docs/ of the utq sources; \\fBhelp tour\\fR at the prompt.\n"
        return page
    }

    /// Text kept as it is, lines and indents.
    static func preformatted(_ text: String) -> String {
        ".nf\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { roff(String($0)) }.joined(separator: "\n") + "\n.fi\n"
    }

    /// Text safe in roff: backslashes and hyphens escaped, no line starting with a dot.
    static func roff(_ text: String) -> String {
        var s = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if s.hasPrefix(".") || s.hasPrefix("'") { s = "\\&" + s }
        return s
    }
}
