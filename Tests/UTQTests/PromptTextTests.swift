import Foundation
import Testing

/// Text typed at the prompt arrives whole whatever the locale says: place names are not
/// ASCII (Zürich, Tromsø, Prishtinë), and libedit reads by the C library's character type.
@Suite struct PromptTextTests {
    @Test(arguments: ["C", "C.UTF-8"])
    func lettersBeyondASCIIArriveWhole(_ lang: String) throws {
        let r = try runUTQInTerminal([(0.3, "echo \"Zürich, Tromsø, Prishtinë\"\n"), (0.5, "\u{4}")],
                                     environment: ["UTQ_HISTORY": "", "LANG": lang, "LC_ALL": ""], seen: [0: "utq> "])
        // The echo's output, on a line of its own (the typed line is the one with the prompt).
        let lines = r.screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        #expect(lines.contains { $0 == "Zürich, Tromsø, Prishtinë" }, "\(r.screen.debugDescription)")
    }
}
