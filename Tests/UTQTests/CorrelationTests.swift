import Foundation
import Testing
@testable import UTQCore

/// corr, covar, covar_pop, regr_slope, regr_intercept and regr_r2: the ways to write them,
/// the answers where there is too little to go on, and the digits kept far from zero. The
/// expected values come from the mathematics (a straight line, a shift that changes
/// nothing), a published data set (Anscombe's), or DuckDB; the oracle compares the rest on
/// random tables.
@Suite struct CorrelationTests {
    /// A session with table t of the given columns, made current.
    func session(_ columns: [Column]) -> Session {
        let s = makeSession()
        s.workspace.put([Table(name: "t", columns: columns)], makeCurrent: true)
        return s
    }

    /// The one number (or nil for null) in a column of a one-row result.
    func number(_ t: Table, _ column: String, row: Int = 0) -> Double? {
        switch t.column(column)?.value(at: row) {
        case .double(let d)?: return d
        case .int(let i)?: return Double(i)
        default: return nil
        }
    }

    func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
        guard let a else { return false }
        return a == b || abs(a - b) <= tolerance * max(1, abs(a), abs(b))
    }

    static let all = "corr(y, x), covar(y, x), covar_pop(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x)"

    // MARK: what they give

    @Test func aStraightLine() throws {
        // y = 3x + 7 over 1…10: a perfect fit, a slope of 3 and an intercept of 7; the
        // covariance is 3 × the variance of x (9.1666… of 1…10, 8.25 dividing by n).
        let x = (1...10).map { Double($0) }
        let s = session([Column.doubles("x", x), Column.doubles("y", x.map { 3 * $0 + 7 })])
        let t = try s.table(Self.all)
        #expect(t.columnNames == ["corr_y_x", "covar_y_x", "covar_pop_y_x", "regr_slope_y_x", "regr_intercept_y_x", "regr_r2_y_x"])
        #expect(close(number(t, "corr_y_x"), 1))
        #expect(close(number(t, "covar_y_x"), 27.5))
        #expect(close(number(t, "covar_pop_y_x"), 24.75))
        #expect(close(number(t, "regr_slope_y_x"), 3))
        #expect(close(number(t, "regr_intercept_y_x"), 7))
        #expect(close(number(t, "regr_r2_y_x"), 1))
        // Falling: −1. And the order of regr_*'s columns is SQL's, y first: x against y is 1/3.
        let down = try session([Column.doubles("x", x), Column.doubles("y", x.map { 20 - 2 * $0 })]).table("corr(y, x), regr_slope(x, y), regr_slope(y, x)")
        #expect(close(number(down, "corr_y_x"), -1))
        #expect(close(number(down, "regr_slope_x_y"), -0.5))
        #expect(close(number(down, "regr_slope_y_x"), -2))
    }

    @Test func anscombesFirstSet() throws {
        // Anscombe (1973), set I: r = 0.816, y = 3.00 + 0.500x, r² = 0.67.
        let x: [Double] = [10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5]
        let y: [Double] = [8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68]
        let t = try session([Column.doubles("x", x), Column.doubles("y", y)]).table(Self.all)
        #expect(abs(number(t, "corr_y_x")! - 0.81642) < 5e-6)
        #expect(abs(number(t, "regr_slope_y_x")! - 0.50009) < 5e-6)
        #expect(abs(number(t, "regr_intercept_y_x")! - 3.00009) < 5e-6)
        #expect(abs(number(t, "regr_r2_y_x")! - 0.66654) < 5e-6)
        // corr and the covariances do not care which column comes first.
        let swapped = try session([Column.doubles("x", x), Column.doubles("y", y)]).table("corr(x, y), covar(x, y), covar_pop(x, y)")
        #expect(number(swapped, "corr_x_y") == number(t, "corr_y_x"))
        #expect(number(swapped, "covar_x_y") == number(t, "covar_y_x"))
        #expect(number(swapped, "covar_pop_x_y") == number(t, "covar_pop_y_x"))
    }

    @Test func pairsWithANullAreLeftOut() throws {
        let x: [Double?] = [1, 2, 3, nil, 5, 6, 7, 8]
        let y: [Double?] = [2.5, nil, 3.1, 9, 4.4, 8.0, nil, 9.5]
        let s = session([Column.doubles("x", x), Column.doubles("y", y)])
        let all = try s.table(Self.all + ", count")
        let pairs = try s.table("where x is not null and y is not null | " + Self.all + ", count")
        #expect(number(all, "count") == 8 && number(pairs, "count") == 5)
        for c in all.columnNames where c != "count" {
            #expect(number(all, c) == number(pairs, c), "\(c)")
            #expect(number(all, c) != nil, "\(c)")
        }
        // Nulls in one column only: the other's values on those rows do not count either.
        let one = try session([Column.doubles("x", [1, 2, 3, 1000]), Column.doubles("y", [2, 4, 6, nil])]).table("corr(y, x), regr_intercept(y, x)")
        #expect(close(number(one, "corr_y_x"), 1) && close(number(one, "regr_intercept_y_x"), 0))
    }

    @Test func tooFewPairsOrAColumnThatDoesNotVary() throws {
        // No pairs: null everywhere. One pair: null but covar_pop, which is 0.
        let none = try session([Column.doubles("x", [1, nil]), Column.doubles("y", [nil, 2])]).table(Self.all)
        for c in none.columnNames { #expect(number(none, c) == nil, "\(c)") }
        let one = try session([Column.doubles("x", [1, nil]), Column.doubles("y", [4, 2])]).table(Self.all)
        for c in one.columnNames { #expect(number(one, c) == (c == "covar_pop_y_x" ? 0 : nil), "\(c)") }
        // y does not vary: no correlation; the line is flat (slope 0, through y) and explains all of y.
        let flatY = try session([Column.doubles("x", [1, 2, 3]), Column.doubles("y", [0.1, 0.1, 0.1])]).table(Self.all)
        #expect(number(flatY, "corr_y_x") == nil)
        #expect(number(flatY, "covar_y_x") == 0 && number(flatY, "covar_pop_y_x") == 0)
        #expect(number(flatY, "regr_slope_y_x") == 0 && number(flatY, "regr_intercept_y_x") == 0.1)
        #expect(number(flatY, "regr_r2_y_x") == 1)
        // x does not vary: no line at all. Seven of 0.1 is the case PostgreSQL's running sums
        // get wrong (a correlation of 0.79).
        let flatX = try session([Column.doubles("x", Array(repeating: 0.1, count: 7)), Column.doubles("y", (1...7).map { Double($0) })]).table(Self.all)
        for c in ["corr_y_x", "regr_slope_y_x", "regr_intercept_y_x", "regr_r2_y_x"] { #expect(number(flatX, c) == nil, "\(c)") }
        #expect(number(flatX, "covar_y_x") == 0)
        // A column of nulls only, and null written out.
        let nulls = try session([Column.doubles("x", [1, 2, 3]), Column.doubles("y", [nil, nil, nil])]).table("corr(y, x), covar_pop(x, null)")
        #expect(number(nulls, "corr_y_x") == nil && nulls.columns[1].value(at: 0) == .null)
    }

    @Test func notANumberAndTheInfinities() throws {
        for bad in [Double.nan, .infinity, -.infinity] {
            let t = try session([Column.doubles("x", [1, 2, bad, 4]), Column.doubles("y", [1, 5, 2, 3])]).table(Self.all)
            for c in t.columnNames { #expect(number(t, c)?.isNaN == true, "\(c) with \(bad)") }
            // Left out with its pair when the other value is null.
            let left = try session([Column.doubles("x", [1, 2, bad, 4]), Column.doubles("y", [1, 5, nil, 3])]).table("corr(y, x)")
            #expect(number(left, "corr_y_x")?.isFinite == true)
        }
    }

    // MARK: digits

    @Test func farFromZero() throws {
        // A shift changes none of them but the intercept, which moves by the slope times the
        // shift. Eighths are exact in binary, so the shifted values are exactly the ones
        // meant. Sums of raw squares (x² near 1e18 beside a spread near 1) lose every digit.
        let base = (0..<2000).map { Double(($0 * 7919) % 1000) / 8 }
        let noise = (0..<2000).map { Double(($0 * 104_729) % 97) / 8 }
        let y = zip(base, noise).map { 2 * $0 + $1 }
        let plain = try session([Column.doubles("x", base), Column.doubles("y", y)]).table(Self.all)
        for offset in [1e9, 1e11] {
            let t = try session([Column.doubles("x", base.map { $0 + offset }), Column.doubles("y", y.map { $0 + offset })]).table(Self.all)
            for c in ["corr_y_x", "covar_y_x", "covar_pop_y_x", "regr_slope_y_x", "regr_r2_y_x"] {
                #expect(close(number(t, c), number(plain, c)!, 1e-9), "\(c) at \(offset): \(number(t, c) ?? .nan) vs \(number(plain, c)!)")
            }
            let slope = number(plain, "regr_slope_y_x")!
            let intercept = number(plain, "regr_intercept_y_x")! + offset - slope * offset
            #expect(close(number(t, "regr_intercept_y_x"), intercept, 1e-12), "intercept at \(offset)")
        }
    }

    @Test func productsThatNearlyCancel() throws {
        // The exact answers (in fractions) where the products of differences from the mean
        // are near 1e15 and their sum a few units: in every order of the rows. DuckDB's
        // running sums give -1.56, -1.11 or -1.33 for the first by the order.
        let cases: [(k: [Int64], i: [Int64], covar: Double)] = [
            ([3, 5, 5], [2, 1_000_000_000_000_000, -1_000_000_000_000_000], -4.0 / 3),
            ([1, 1, 4], [1_000_000_000_000_000, -1_000_000_000_000_000, 2], 2),
        ]
        for c in cases {
            for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
                let s = session([Column.ints("k", order.map { c.k[$0] }), Column.ints("i", order.map { c.i[$0] })])
                let t = try s.table("covar(k, i), covar_pop(i, k)")
                #expect(close(number(t, "covar_k_i"), c.covar, 1e-15), "\(c.k) \(c.i) in order \(order): \(number(t, "covar_k_i") ?? .nan)")
                #expect(close(number(t, "covar_pop_i_k"), c.covar * 2 / 3, 1e-15), "\(order)")
            }
        }
        // Of 1, -1e15, 7 against -1e15, -2.5, 1e15 the sample covariance is 3833333333333336.5.
        let t = try session([Column.ints("i", [1, -1_000_000_000_000_000, 7]), Column.doubles("d", [-1e15, -2.5, 1e15])]).table("covar(i, d)")
        #expect(number(t, "covar_i_d") == 3_833_333_333_333_336.5)
    }

    @Test func wholeNumbersAsDecimals() throws {
        // Whole numbers near 1e15 (past where their squares fit) give what the same values
        // as decimals give.
        let spread: [Int64] = (0..<500).map { (Int64($0) * 37) % 101 }
        let x: [Int64] = spread.map { 1_000_000_000_000_000 + $0 }
        let y: [Int64] = spread.enumerated().map { -3 * $1 + Int64($0 % 5) }
        let ints = try session([Column.ints("x", x), Column.ints("y", y)]).table(Self.all)
        let doubles = try session([Column.doubles("x", x.map { Double($0) }), Column.doubles("y", y.map { Double($0) })]).table(Self.all)
        for c in ints.columnNames {
            #expect(close(number(ints, c), number(doubles, c)!, 1e-12), "\(c)")
        }
        #expect(number(ints, "corr_y_x")! < -0.99)
    }

    @Test func theSameAsDuckDB() throws {
        guard let python = Oracle.python(with: "duckdb") else { return }
        // Around 1e9, by a key, with nulls; DuckDB's answers (its constants aside: groups here
        // all vary) to 1e-9.
        var rows: [(Int64, Double?, Double?)] = []
        var g = OracleRandom(seed: 33)
        for i in 0..<3000 {
            let k = Int64(i % 4)
            let x = 1e9 + Double(g.int(0...100_000)) / 100
            let y = g.chance(0.1) ? nil : 5e8 - 0.75 * x + Double(g.int(0...5000)) / 10
            rows.append((k, g.chance(0.05) ? nil : x, y))
        }
        let s = session([Column.ints("k", rows.map(\.0)), Column.doubles("x", rows.map(\.1)), Column.doubles("y", rows.map(\.2))])
        let mine = try s.table(Self.all + " by k")
        let csv = "k,x,y\n" + rows.map { "\($0.0),\($0.1.map { "\($0)" } ?? ""),\($0.2.map { "\($0)" } ?? "")" }.joined(separator: "\n")
        let path = try temporaryFile("corr-duckdb.csv", csv)
        let sql = "SELECT k, corr(y, x), covar_samp(y, x), covar_pop(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x) FROM read_csv('\(path)', columns={'k': 'BIGINT', 'x': 'DOUBLE', 'y': 'DOUBLE'}, header=true) GROUP BY k ORDER BY k"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python.split(separator: " ").map(String.init)[0])
        p.arguments = Array(python.split(separator: " ").map(String.init).dropFirst())
            + ["-c", "import duckdb, json; print(json.dumps(duckdb.sql(\"\(sql)\").fetchall()))"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let rowsBack = try #require(try JSONSerialization.jsonObject(with: data) as? [[Any]])
        let theirs = rowsBack.map { $0.map { ($0 as? NSNumber)?.doubleValue ?? .nan } }
        #expect(theirs.count == 4 && mine.rowCount == 4)
        for (row, values) in theirs.enumerated() {
            for (k, c) in mine.columnNames.dropFirst().enumerated() {
                #expect(close(number(mine, c, row: row), values[k + 1], 1e-9), "\(c) of k = \(row): \(number(mine, c, row: row) ?? .nan) vs DuckDB's \(values[k + 1])")
            }
        }
    }

    // MARK: how they are written

    @Test func asACallAsAVerbInListsAndByKeys() throws {
        let s = makeSession()
        #expect(s.run("load datasets/rides.csv").isEmpty)
        let call = try s.table("corr(miles, price) by driver")
        let verb = try s.table("corr miles, price by driver")
        #expect(call.columnNames == ["driver", "corr_miles_price"])
        #expect(tableDifference(call, verb) == nil)
        // In a list with others, in either form; `as` names it.
        let list = try s.table("count, corr(miles, price) as r, regr_slope price, miles, avg price by status")
        #expect(list.columnNames == ["status", "count", "r", "regr_slope_price_miles", "avg_price"])
        // By a key: each group's answer is the answer over that group's rows alone.
        for (i, status) in list.strings("status").enumerated() {
            let alone = try s.table("where status = \"\(status)\" | corr(miles, price), regr_slope(price, miles)")
            #expect(close(number(list, "r", row: i), number(alone, "corr_miles_price")!), "\(status)")
            #expect(close(number(list, "regr_slope_price_miles", row: i), number(alone, "regr_slope_price_miles")!), "\(status)")
        }
        // A parenthesis that starts the first column is the verb form's.
        let parenthesised = try s.table("corr (miles + 1) * 2, price as r")
        let computed = try s.table("let m = (miles + 1) * 2 | corr(m, price) as r")
        #expect(close(number(parenthesised, "r"), number(computed, "r")!))
    }

    @Test func overEachRowsGroupInLet() throws {
        let s = makeSession()
        #expect(s.run("load datasets/rides.csv").isEmpty)
        let groups = try s.table("corr(miles, price) as r, regr_slope(price, miles) as b by status")
        // At the start of a line, as after a pipe: a column on every row, its group's answer.
        for text in ["let r = corr(miles, price), b = regr_slope(price, miles) by status",
                     "rides | let r = corr(miles, price), b = regr_slope(price, miles) by status"] {
            let rows = try s.table(text)
            #expect(rows.rowCount == 3200, "\(text)")
            let status = rows.strings("status")
            for (i, key) in groups.strings("status").enumerated() {
                let row = try #require(status.firstIndex(of: key))
                #expect(close(number(rows, "r", row: row), number(groups, "r", row: i)!), "\(text): \(key)")
                #expect(close(number(rows, "b", row: row), number(groups, "b", row: i)!), "\(text): \(key)")
            }
        }
        // Without by, over all the rows; and a summary of one column written as a call is a
        // column too (`let m = max(x) by g`), where the verb form keeps a table.
        let whole = try s.table("let r = corr(miles, price), m = max(miles) by status | distinct r")
        #expect(whole.rowCount == 4)
        #expect(try s.table("let m = max(miles) by status").rowCount == 3200)
        #expect(try s.table("let kept = corr miles, price by status\nkept").columnNames == ["status", "corr_miles_price"])
        // Placed in the plan as a window over the group.
        let plan = PlanPrinter.text(try s.plan("let r = corr(miles, price) by status"))
        #expect(plan.contains("window corr(miles, price) by status"), "\(plan)")
    }

    // MARK: help and refusals

    @Test func refusalsSayWhatIsNeeded() throws {
        let s = makeSession()
        #expect(s.run("load datasets/rides.csv").isEmpty)
        let text = try #require(s.failure("corr(miles, driver) by status"))
        #expect(text.message == "corr needs two columns of numbers, but driver is text")
        #expect(text.hint?.contains("put it after by") == true)
        #expect(s.failure("corr(paid, miles)")?.hint?.contains("int(paid)") == true)
        #expect(s.failure("regr_slope(price, picked_up_at - requested_at)")?.hint?.contains("minutes(") == true)
        for one in ["corr miles", "corr(miles)", "corr miles by driver", "count, covar(price) by status", "corr distinct miles, price"] {
            #expect(s.failure(one)?.message == "\(one.contains("covar") ? "covar" : "corr") takes two columns: \(one.contains("covar") ? "covar" : "corr")(a, b) or \(one.contains("covar") ? "covar" : "corr") a, b", "\(one)")
        }
        #expect(s.failure("let r = corr(miles) by driver")?.message == "corr takes two columns, as in corr(a, b)")
        let outside = try #require(s.failure("where corr(miles, price) > 0.5"))
        #expect(outside.message == "corr is a summary, used as a verb")
        #expect(outside.hint?.contains("let r = corr(a, b) by KEY") == true)
    }

    @Test func helpForEachSaysTheOrderAndWhatIsNull() throws {
        for name in ["corr", "covar", "covar_samp", "covar_pop", "regr_slope", "regr_intercept", "regr_r2"] {
            let text = try Help.text(for: name)
            #expect(text.contains("fewer than two pairs give null") || text.contains("Fewer than two pairs give null"), "help \(name)")
            #expect(AggregateFunction.named(name)?.isPaired == true, "\(name)")
        }
        #expect(try Help.text(for: "regr_slope").contains("Y comes first, as in SQL: regr_slope(price, miles)"))
        #expect(try Help.text(for: "covar_samp").hasPrefix("covar — "))
        #expect(try Help.text(for: "corr").contains("corr(a, b) is corr(b, a)"))
        // The overview keeps a space after names longer than its column.
        #expect(try Help.text(for: nil).contains("  regr_intercept  Where the least-squares line"))
    }
}
