import Foundation
import Testing
@testable import UTQCore

/// Excel workbooks: the fixtures of Tests/Fixtures/xlsx (written by openpyxl and by hand, see
/// make.py) read as openpyxl reads them, the types and names utq gives their columns, and the
/// PLDP specification's own spreadsheets, sheet by sheet, against openpyxl run now.
@Suite struct XLSXTests {
    static let folder = XLSXFixtures.folder

    @Test func everyFixtureSheetReadsAsOpenpyxlReadsIt() throws {
        let files = try Repo.files(in: "\(Self.folder)/expected", ending: ".json")
        for file in files {
            let expected = try XLSXFixtures.expected(file)
            let workbook = String(file.prefix { $0 != "." }) + ".xlsx"
            let path = "\(Self.folder)/\(workbook)"
            if expected.rowsWithValues.isEmpty {
                #expect(throws: LoadError.self) { try XLSXFixtures.load(path, sheet: expected.sheet) }
                continue
            }
            let loaded = try XLSXFixtures.load(path, sheet: expected.sheet)
            let differences = expected.differences(from: loaded.tables[0])
            #expect(differences.isEmpty, "\(file): \(differences.joined(separator: "; "))")
        }
        #expect(files.count >= 7)
    }

    @Test func columnsAreTypedAsTheCSVReaderTypesThem() throws {
        let loaded = try XLSXFixtures.load("\(Self.folder)/types.xlsx")
        let t = loaded.tables[0]
        #expect(t.name == "types")
        // The first sheet is hidden: the first visible one is read.
        #expect(loaded.summary.contains("sheet Types"))
        #expect(loaded.summary.contains("People Staying"), "the summary names the other sheets: \(loaded.summary)")
        let types = Dictionary(uniqueKeysWithValues: t.columns.map { ($0.name, $0.type) })
        #expect(types["id"] == .int)
        #expect(types["ratio"] == .double)
        #expect(types["flag"] == .bool)
        #expect(types["day"] == .timestamp)
        #expect(types["when"] == .timestamp)
        #expect(types["clock"] == .duration)
        #expect(types["spent"] == .duration)
        #expect(types["label"] == .string)
        #expect(types["mixed"] == .string)
        #expect(types["errors"] == .int, "error cells have no say in a column's type")
        // Spaces around names are dropped, a repeated name numbered, an empty one made up;
        // the styled empty cells right of the table and below it are no columns and no rows.
        #expect(t.columns.map(\.name) == ["id", "name", "ratio", "flag", "day", "when", "clock", "label", "mixed", "errors",
                                          "name_2", "column_12", "spent"])
        #expect(t.rowCount == 4, "the blank row between the rows is left out")
        #expect(t.column("day")?.unit == .day)
        #expect(t.column("day")?.floating == true)
        #expect(t.column("when")?.unit == .automatic)
        #expect(t.column("clock")?.unit == .clock)
        #expect(t.strings("day") == ["2024-01-05", "1900-01-01", "2024-02-29", "1900-03-01"])
        #expect(t.strings("clock") == ["08:30:00", "23:59:59", "00:00:00", "12:00:00"])
        #expect(t.strings("spent") == ["25:30:00", "00:45:00", "null", "48:00:00"])
        #expect(t.strings("label") == ["a & b < c", "line one\nline two", "plain bold", "Ünïcödé ✓"])
        #expect(t.strings("name") == ["Ana", "Bo", "  Cy  ", "Dee"], "a text cell is kept as written, spaces and all")
        let warnings = loaded.warnings.map(\.message)
        #expect(warnings.contains { $0.hasPrefix("Types!I5 holds text where the cells above it hold a number") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Types!J3 holds the error #DIV/0!") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Types!J5 holds the error #N/A") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("column 12 has no name") }, "\(warnings)")
    }

    @Test func aSheetIsNamedAndItsTimesAreWallClockTimesOfTheLoadZone() throws {
        let oslo = try #require(ZoneRules.named("Europe/Oslo"))
        let types = try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "Types", zone: oslo)
        let when = try #require(types.tables[0].column("when"))
        #expect(when.floating)
        #expect(types.tables[0].zone.identifier == "Europe/Oslo")
        // 1999-12-31 23:59:59 in Oslo is 22:59:59 UTC.
        #expect(when.value(at: 2) == .timestamp(CivilTime.daysFromCivil(year: 1999, month: 12, day: 31) * CivilTime.microsPerDay
                                                + (22 * 3600 + 59 * 60 + 59) * 1_000_000))
        #expect(types.warnings.contains { $0.message.contains("skips when clocks go forward") }, "2024-03-31 02:30 does not exist in Oslo")

        let people = try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "people staying")
        #expect(people.tables[0].columns.map(\.name) == ["place", "people", "when"])
        #expect(people.summary.contains("sheet People Staying") && !people.summary.contains("also has"))
    }

    @Test func the1904DateSystemCountsFrom1904() throws {
        let t = try XLSXFixtures.load("\(Self.folder)/dates1904.xlsx").tables[0]
        #expect(t.strings("day") == ["1904-01-02", "2020-02-29"])
        #expect(t.column("stamp")?.type == .timestamp)
    }

    @Test func sharedStringsFormulasAndCustomFormats() throws {
        let loaded = try XLSXFixtures.load("\(Self.folder)/handmade.xlsx")
        let t = loaded.tables[0]
        #expect(t.strings("name") == ["Tom & Jerry <3 > \"q\" 'a'", "  spaced  ", "two\nlines Aé", "<raw> & text",
                                      "carriage\rreturn and _x000D_ kept", "inline"])
        #expect(t.strings("rich") == ["Bold and italic", "東京", "null", "null", "null", "null"], "runs joined; phonetic guides left out")
        #expect(t.column("share")?.type == .double, "a percentage is a number")
        #expect(t.column("stamp")?.type == .timestamp)
        #expect(t.column("elapsed")?.type == .duration)
        #expect(t.strings("elapsed") == ["36:00:00", "00:30:00", "720:00:00", "null", "null", "null"])
        #expect(t.strings("flag") == ["true", "false", "null", "null", "true", "null"])
        #expect(t.column("when")?.type == .timestamp, "ISO dates written as text (t=\"d\")")
        // A number whose format is "Day "0 is a number; one in yyyy-mm-dd below numbers makes text.
        #expect(t.strings("count") == ["7", "8", "9", "100", "3", "2024-01-01"])
        #expect(t.strings("formula") == ["14", "x8", "null", "100", "null", "null"], "formulas give their cached results")
        let warnings = loaded.warnings.map(\.message)
        #expect(warnings.contains { $0.hasPrefix("'Data & Notes'!C8 holds a date where the cells above it hold a number") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("'Data & Notes'!G3 holds text") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("'Data & Notes'!G4 holds the error #DIV/0!") }, "\(warnings)")

        let lists = try XLSXFixtures.load("\(Self.folder)/handmade.xlsx", sheet: "Lists")
        let l = lists.tables[0]
        // The header is the first row with a value (row 3); column A, empty, is kept.
        #expect(l.columns.map(\.name) == ["column_1", "code", "header", "stamp", "when"])
        #expect(l.strings("stamp") == ["18:00:00", "12:00:00", "null"], "h:mm AM/PM and h:mm are times of day")
        #expect(l.strings("when") == ["2000-01-01", "1900-03-01", "1900-02-28"])
        #expect(lists.warnings.contains { $0.message.hasPrefix("Lists!C5 holds a formula that was never calculated") }, "\(lists.warnings)")
    }

    @Test func headerAndColumnsOptionsApplyToSheets() throws {
        var noHeader = LoadOptions()
        noHeader.header = false
        let t = try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "People Staying", options: noHeader).tables[0]
        #expect(t.columns.map(\.name) == ["column_1", "column_2", "column_3"])
        #expect(t.rowCount == 4)
        #expect(t.strings("column_1") == ["place", "bench", "steps", "lawn"])
        let expected = try XLSXFixtures.expected("types.xlsx.3.json")
        #expect(expected.differences(from: t, header: false).isEmpty)

        var named = LoadOptions()
        named.columns = ["where", "n", "at"]
        let renamed = try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "People Staying", options: named).tables[0]
        #expect(renamed.columns.map(\.name) == ["where", "n", "at"])
        #expect(renamed.rowCount == 3)

        named.columns = ["where", "n"]
        let e = #expect(throws: LoadError.self) { try XLSXFixtures.load("\(Self.folder)/types.xlsx", sheet: "People Staying", options: named) }
        #expect(e?.message.contains("has 3 columns (A to C), and columns=(…) names 2") == true, "\(e?.message ?? "")")
    }

    @Test func loadAsTheLanguageWritesIt() throws {
        let s = makeSession()
        let t = try s.table("load \(Self.folder)/types.xlsx sheet \"People Staying\" as staying\nstaying | sum people as people")
        #expect(t.strings("people") == ["15"])
        let other = try s.table("load \(Self.folder)/types.xlsx with sheet=\"People Staying\", columns=(a, b, c)\ntypes")
        #expect(other.columns.map(\.name) == ["a", "b", "c"])
    }

    /// Monthly sheets by a pattern: a workbook is a .zip, and is read as a file of rows (its
    /// first sheet), not refused as a GTFS feed; a feed a pattern meets is named as it is typed.
    @Test func aPatternOfWorkbooksIsOneTable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utq-sheets-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = Repo.path("\(Self.folder)/types.xlsx")
        for month in ["March 2024.xlsx", "April 2024.xlsx"] { try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/\(month)") }
        let s = makeSession()
        let one = try s.table("load \(source) as one\none | count")
        let both = try s.table("load \"\(folder)/*.xlsx\" as months\nmonths | count by file")
        #expect(both.strings("file") == ["April 2024.xlsx", "March 2024.xlsx"])
        #expect(both.strings("count") == [one.strings("count")[0], one.strings("count")[0]])
        // A feed among the files is refused, with the command to load it alone.
        try FileManager.default.createDirectory(atPath: "\(folder)/my feed.xlsx", withIntermediateDirectories: true)
        let d = try #require(s.failure("load \"\(folder)/*.xlsx\""))
        #expect(d.message.contains("is a GTFS feed") && d.message.hasSuffix("load \"\(folder)/my feed.xlsx\""), "\(d.message)")
    }

    @Test func excelsLeapDayThatNeverWasIsNamed() throws {
        let values = XLSXValues(shared: XLSXTexts(), texts: XLSXTexts(), date1904: false)
        let day = { (serial: Double) in TimeText.display(values.wallMicros(.date, serial.bitPattern), zone: .utc, unit: .day) }
        #expect(day(1) == "1900-01-01")
        #expect(day(59) == "1900-02-28")
        #expect(day(60) == "1900-02-28")
        #expect(day(61) == "1900-03-01")
        #expect(day(45292) == "2024-01-01")
        #expect(values.isLeapDayThatNeverWas(.date, Double(60.25).bitPattern))
        #expect(!values.isLeapDayThatNeverWas(.date, Double(61).bitPattern))
    }

    /// The PLDP specification and its templates, real Excel files: every sheet loads, with
    /// openpyxl's rows and cells.
    @Test func thePLDPSpreadsheetsReadSheetBySheetAsOpenpyxlReadsThem() throws {
        let folder = Repo.path("datasets/pldp-spec")
        guard let python = Oracle.python(with: "openpyxl") else {
            print("XLSXTests: the PLDP spreadsheets are not compared: no Python with openpyxl (make oracle-deps installs it)")
            return
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xlsx") }.sorted()
        #expect(names.count == 3, "the three PLDP workbooks in \(folder)")
        var sheetsRead = 0
        for name in names {
            let path = folder + "/" + name
            let sheets = try XLSXFixtures.openpyxl(path, python: python)
            #expect(!sheets.isEmpty)
            for sheet in sheets {
                let loaded = try XLSXFixtures.load(path, sheet: sheet.sheet)
                let differences = sheet.differences(from: loaded.tables[0])
                #expect(differences.isEmpty, "\(name): \(differences.prefix(5).joined(separator: "; "))")
                sheetsRead += 1
            }
        }
        #expect(sheetsRead == 18, "8 + 1 + 9 sheets")
    }
}
