/// `save FILE`: writes the rows that reach it to a file, by its extension.
enum SaveVerb {
    static let spec = VerbSpec(
        name: "save", category: .output, role: .sink,
        usage: "save FILE | save to DB.TABLE | save append to DB.TABLE   (save! replaces an existing file or table)",
        summary: "Write the result to a file: .csv, .tsv, .json, .ndjson, .geojson, .md or .parquet by its extension (.gz or .zst after a text format compresses it).",
        details: """
        The file is written to a temporary name and renamed, so it is never left half written.
        A name ending in .gz or .zst (rides.csv.gz, rides.ndjson.zst) writes the format its
        name has before that, compressed with gzip or zstd; load reads such files back.
        An existing file is kept unless you write save! FILE. Numbers are written in full
        precision without separators, times as ISO 8601 with their offset. A .parquet file keeps
        the columns' types (times in microseconds, dates as dates, text with a dictionary,
        Snappy-compressed); durations are written as microseconds, which utq reads back as
        durations. A .geojson file is a FeatureCollection (what QGIS, kepler.gl and geojson.io
        open): a feature per row, the geometry column (or the x and y, or latitude and
        longitude columns) its geometry, the other columns its properties. save to DB.TABLE
        copies the rows into a table of an attached database (COPY, in one transaction); an
        existing table is kept unless you write save! to DB.TABLE. save append to DB.TABLE adds
        the rows to an existing table (plain or partitioned), its columns matched by name; if
        anything fails, nothing is added.
        """,
        examples: ["count by legend | save! legend_counts.csv", "where legend = \"Bike\" | save! bikes.csv.gz"],
        completes: .file, keywords: ["to", "append"],
        parse: { p, _ in
            var replace = false
            if p.current.isSymbol(.bang) && !p.current.spaceBefore { p.advance(); replace = true }
            // `save append to DB.TABLE`; `save append.csv` is a file.
            var append = false
            let mark = p
            if p.eatKeyword("append") {
                if p.current.isSymbol(.dot) && !p.current.spaceBefore {
                    p = mark
                } else {
                    guard p.current.isKeyword("to") else {
                        throw Diagnostic("save append adds rows to a table of an attached database", at: p.current.span,
                                         hint: "save append to DB.TABLE, as in save append to db.rides")
                    }
                    guard !replace else {
                        throw Diagnostic("save! replaces a table and save append adds to one: write one of them", at: mark.current.span,
                                         hint: "save append to DB.TABLE keeps the table's rows and adds these")
                    }
                    append = true
                }
            }
            let toTable = p.eatKeyword("to")
            let (path, span) = toTable ? try p.tableName("a table name such as db.rides_2020 after to") : try p.path("a file name")
            if p.eatKeyword("force") { replace = true }
            return Syntax(request: SaveRequest(path: path, replace: replace, span: span, toTable: toTable, append: append))
        })

    struct Syntax: SinkSyntax {
        var request: SaveRequest

        var syntax: String { (request.replace ? "replace " : "") + (request.append ? "append " : "") + (request.toTable ? "to " : "") + request.path.quoted }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> Sink {
            if request.toTable { return .save(request) }
            guard OutputFormat.forFile(request.path) != nil || request.isParquet else {
                throw Diagnostic("cannot tell the format of \(request.path) from its name", at: request.span,
                                 hint: "end it with .csv, .tsv, .json, .ndjson, .geojson, .md, .txt or .parquet (and .gz or .zst after a text format to compress it, as in rides.csv.gz)")
            }
            if request.format == .geojson, ImpliedPosition.find(input.schema) == nil {
                throw Diagnostic("a GeoJSON file is a map's features, and these rows have no position: no geometry column, no x and y, no latitude and longitude",
                                 at: request.span, hint: ImpliedPosition.missingHint(input.schema))
            }
            return .save(request)
        }
    }
}

/// Where `save` writes, and whether it may replace a file.
public struct SaveRequest: Sendable {
    public var path: String
    public var replace: Bool
    public var span: SourceSpan
    /// `save to DB.TABLE`: a table of an attached database, not a file.
    public var toTable = false
    /// `save append to DB.TABLE`: the rows added to an existing table.
    public var append = false

    public var format: OutputFormat { OutputFormat.forFile(path) ?? .csv }
    /// A Parquet file, which is not text and has a writer of its own.
    public var isParquet: Bool { !toTable && ParquetWriter.isParquetPath(path) }
}
