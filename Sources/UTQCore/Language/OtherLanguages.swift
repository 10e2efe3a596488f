/// Words people bring from SQL, pandas, dplyr or the shell, and the utq verb that does the
/// same, so `group by legend` answers with how utq says it rather than only "unknown verb".
enum OtherLanguages {
    struct Advice {
        let verb: String
        let hint: String
    }

    static func advice(for word: String) -> Advice? {
        switch word.lowercased() {
        case "group", "groupby", "group_by":
            return Advice(verb: "count", hint: "summaries group by themselves: count by legend, avg angle by hour")
        case "summarize", "summarise", "aggregate", "agg":
            return Advice(verb: "count", hint: "name the summary and its groups: count by legend, avg angle by hour")
        case "order", "orderby", "order_by", "arrange":
            return Advice(verb: "sort", hint: "to order rows, write sort: sort count desc")
        case "filter", "having", "grep":
            return Advice(verb: "where", hint: "to keep some rows, write where: where legend = \"Bike\"")
        case "head", "take", "first_n":
            return Advice(verb: "limit", hint: "to keep the first rows, write limit: limit 10")
        case "graph", "draw", "pie":
            return Advice(verb: "chart", hint: "to draw a result, end the line with chart: count by hour | chart bar")
        case "open", "read", "import":
            return Advice(verb: "load", hint: "to read a file, write load: load datasets/market.json")
        case "export", "write", "to_csv":
            return Advice(verb: "save", hint: "to write a result to a file, end the line with save: count by legend | save counts.csv")
        case "mutate", "compute", "add", "assign":
            return Advice(verb: "let", hint: "to add a column, write let: let px = round(x)")
        case "unique", "uniq":
            return Advice(verb: "distinct", hint: "to list the different values, write distinct: distinct legend")
        case "show", "info", "schema", "columns":
            return Advice(verb: "describe", hint: "to see the columns and their types, write describe")
        default:
            return nil
        }
    }
}
