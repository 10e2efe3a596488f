/// The summaries of two columns: how they vary together. Written as a call,
/// `corr(miles, price) by driver`, or as a verb, `corr miles, price by driver`; in lists
/// (`count, corr(x, y) by legend`) and over each row's group in let (`let r = corr(x, y) by legend`).
extension AggregateVerb {
    static let pairHelp = """
    Only rows where both columns have a value count (pairs); whole numbers and decimals both
    work. Fewer than two pairs give null (covar_pop of one pair is 0), and so does a column
    that is the same in every pair where the answer would divide by its spread — corr of a
    constant column, regr_slope when x does not vary — as in PostgreSQL and the SQL standard
    (DuckDB gives NaN there). NaN or an infinity among the pairs gives NaN. The result column
    is named after both columns: corr(miles, price) makes corr_miles_price.
    """

    static func pair(_ name: String, usage: String, summary: String, details: String, examples: [String]) -> VerbSpec {
        VerbSpec(name: name, aliases: AggregateFunction.aliases(of: name), category: .summary, usage: usage, summary: summary,
                 details: details + "\n\n" + pairHelp + "\n\n" + keyHelp, examples: examples, keywords: ["by", "as", "every"], parse: parse)
    }

    static let pairSpecs: [VerbSpec] = [
        pair("corr", usage: "corr(A, B) [as NAME] [, AGG …] [by KEY, …]   (or: corr A, B …)",
             summary: "The correlation of two columns per group, from −1 to 1 (Pearson's r): near 1 they rise together, near −1 one falls as the other rises.",
             details: "corr(a, b) is corr(b, a): the order of the columns does not matter.",
             examples: ["corr(x, y) by legend", "corr x, y, count by legend", "where angle is not null | corr(x, angle) as r",
                        "let r = corr(x, y) by legend | distinct legend, r"]),
        pair("covar", usage: "covar(A, B) [as NAME] [, AGG …] [by KEY, …]   (or: covar A, B …)",
             summary: "The sample covariance of two columns per group (dividing by n − 1, as pandas' cov and DuckDB's covar_samp).",
             details: "covar(a, b) is covar(b, a). covar_pop divides by n instead.",
             examples: ["covar(x, y) by legend", "covar_samp x, y"]),
        pair("covar_pop", usage: "covar_pop(A, B) [as NAME] [, AGG …] [by KEY, …]   (or: covar_pop A, B …)",
             summary: "The population covariance of two columns per group (dividing by n).",
             details: "covar_pop(a, b) is covar_pop(b, a). covar divides by n − 1 instead.",
             examples: ["covar_pop(x, y) by legend"]),
        pair("regr_slope", usage: "regr_slope(Y, X) [as NAME] [, AGG …] [by KEY, …]   (or: regr_slope Y, X …)",
             summary: "The slope of the least-squares line of Y against X per group: how much Y changes when X grows by 1.",
             details: "Y comes first, as in SQL: regr_slope(price, miles) is the price of one more mile.",
             examples: ["regr_slope(y, x) by legend", "regr_slope(y, x) as slope, regr_intercept(y, x) as intercept by legend"]),
        pair("regr_intercept", usage: "regr_intercept(Y, X) [as NAME] [, AGG …] [by KEY, …]   (or: regr_intercept Y, X …)",
             summary: "Where the least-squares line of Y against X crosses X = 0, per group.",
             details: "Y comes first, as in SQL: regr_intercept(price, miles) is the price of a ride of no miles on the line.",
             examples: ["regr_intercept(y, x) by legend"]),
        pair("regr_r2", usage: "regr_r2(Y, X) [as NAME] [, AGG …] [by KEY, …]   (or: regr_r2 Y, X …)",
             summary: "How much of Y's spread the line of Y against X explains, from 0 to 1 (the square of corr), per group.",
             details: "Y comes first, as in SQL; when X varies and Y does not, the line explains all of it: 1.",
             examples: ["regr_r2(y, x) by legend"]),
    ]
}
