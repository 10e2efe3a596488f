import Foundation
import Testing
@testable import UTQCore

/// What one Tab does with the word typed (PromptKeysTests presses it in a terminal).
@Suite struct TabStepTests {
    func market() -> Session {
        let s = makeSession()
        #expect(s.failure("load datasets/market.json") == nil)
        return s
    }

    @Test func aColumnComesBeforeFunctionsAndAloneIsWrittenWhole() {
        let s = market()
        let c = s.complete("count by le")
        #expect(c.candidates == ["legend", "len"])
        #expect(c.columns == 1)
        #expect(c.tabStep(typed: "le") == .replace("legend "))
        // Typed in other letters' case, the column's own spelling is written.
        #expect(s.complete("count by LE").tabStep(typed: "LE") == .replace("legend "))
        // Columns come first in the list too.
        #expect(s.complete("count by ").candidates.prefix(8) == ["angle", "icon", "legend", "note", "tag", "time", "x", "y"])
    }

    @Test func whatTheChoicesShareIsWrittenThenTheyAreListed() {
        let s = market()
        #expect(s.complete("set ti").tabStep(typed: "ti") == .replace("time"))
        #expect(s.complete("set time").tabStep(typed: "time") == .list)
        #expect(s.complete("set zzz").tabStep(typed: "zzz") == .nothing)
        #expect(s.complete("cou").tabStep(typed: "cou") == .replace("count "))
        // co is also corr, covar and covar_pop: the choices share only co, so they are listed.
        #expect(s.complete("co").tabStep(typed: "co") == .list)
    }

    @Test func twoColumnsOfTheSameStartAreListed() {
        let s = sessionWith(Table(name: "t", columns: [Column.ints("Angle in degrees", [1]), Column.ints("Angular", [2])]))
        let c = s.complete("sort Ang")
        #expect(c.columns == 2)
        #expect(c.tabStep(typed: "Ang") == .list)
    }

    @Test func aFolderIsWrittenWithoutASpaceAfter() {
        let s = market()
        #expect(s.complete("load datase").tabStep(typed: "datase") == .replace("datasets/"))
    }
}
