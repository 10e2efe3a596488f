/// Help entries that are not verbs or functions.
public enum HelpTopics {
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let details: String
        public let examples: [String]
        /// Other names help answers to.
        public var aliases: [String] = []
    }

    /// The time buckets' help, from their registry.
    public static var buckets: [Entry] {
        TimeBuckets.all.map { Entry(name: $0.name, summary: $0.summary, details: $0.details, examples: $0.examples, aliases: $0.aliases) }
    }

    public static let topics: [Entry] = [
        Entry(name: "syntax", summary: "How a command is written.", details: """
        A command is a pipeline of stages joined by |, read left to right:
          where legend = "Bike" | count by hour | sort count desc
        A line starting with a verb runs on the current table; start it with a table name,
        $3 (result 3) or _ (the last result) to run on something else:
          rides | count by weekday        $3 | where count > 10
        Commands end at ; or a line break. A line ending in | (or a line starting with |)
        continues the pipeline. # starts a comment. Text goes in "double" or 'single' quotes;
        names with spaces in `backticks`. Spans of time are written 15m, 1h, 30s, 2d, 1w.
        let NAME = PIPELINE keeps a result as a table; let NAME = EXPR inside a pipeline adds a column.
        """, examples: [
            "where legend = \"Bike\" | count by hour | sort count desc",
            "count by hour; $1 | where count > 100",
            "select `legend` as behaviour | count by behaviour",
            "where time >= \"2017-03-23 12:00\" and time < \"2017-03-23 12:15\" | count",
        ]),
        Entry(name: "spatial", summary: "Geometries: points, lines and zones in lng/lat or on a plan; spatial joins, measures and maps.", details: """
        A geometry column holds points, lines, polygons or their multi- forms, in one of two
        spaces. lng/lat (WGS 84, as GPS, GTFS and GeoJSON give them): distances, lengths and
        areas are geodesic, in metres (Karney's algorithms, as GeographicLib and PostGIS's
        geography). A plan (a Behaviour Mapper map in its points, a drawing): in its own units.
        Which side of an edge a point lies on is read in the coordinates as they are in both,
        as shapely and PostGIS's geometry read it.
          made by      point(lng, lat), xy(x, y), geometry("POLYGON ((…))"), polyline(text);
                       a GeoJSON file (a row per feature); a column of WKT or GeoJSON text in
                       a CSV (load F with crs=plane when its coordinates are a plan's)
          positions    a table without a geometry column has one all the same: its x and y
                       (a Behaviour Mapper plan), else a latitude and a longitude column
                       (stop_lat, stop_lon; pickup_lat, pickup_lng)
          joins        join zones on within (on contains, on intersects), join stops within
                       400 m (each pair with its distance), join stops nearest 3; an R-tree
                       of the right side's boxes, on every core
          measures     distance, length, area, centroid, bearing, buffer, within, contains,
                       intersects, cell (a square of a grid), x, y, wkt, geojson
          summaries    path POINT by KEY (a group's points in order, sort first), collect
                       (one multi- geometry), dissolve (polygons merged: a district, an
                       isochrone)
          out          save F.geojson (QGIS, kepler.gl, geojson.io), chart map (zones shaded
                       by a value, lines, points; to F.svg for a report), WKT in CSV, EWKT in
                       PostgreSQL
        """, examples: [
            "load datasets/market-zones.csv as zones; market | join zones on within | count by zone",
            "load datasets/gtfs/demo-transit.zip as feed; feed.stops | join feed.stops within 400 m | count by stop_id",
            "select metres = round(distance(point(21.16, 42.66), point(21.17, 42.67))) | limit 1",
        ], aliases: ["geometries", "gis"]),
        Entry(name: "pldp", summary: "Public Life Data Protocol surveys (Gehl): people staying and people moving, as cities publish them.", details: """
        load knows a PLDP file by its startedAt column and the protocol's count columns
        (posture…, gender…, age…, mode…, activity…, group…, object…), and reads it so that
        the standard questions are one line each. Two shapes are published; this is San
        Francisco's:
          startedAt, endedAt   timestamps: US dates with 12-hour clocks (09/22/17 10:00 PM)
                               are read month first; set timezone America/Los_Angeles
                               (before or after the load) puts them in the study's zone,
                               the clock readings as written
          count columns        whole numbers; an empty cell is 0, as the protocol writes it
          people               how many the row counts: a staying survey's posture columns
                               added up (each person has one posture), a moving survey's mode
                               columns added up; both are counts by eye, so shares are estimates
          lng, lat             the location "-122.418, 37.7796" as two numbers
        Names with spaces after them (postureStanding ) are read without them. Columns the
        protocol does not name are kept as they are, and the load says which. A survey saved
        by utq loads back with people, lng and lat once; a people column of the file's own
        that is not the counts added up is kept as it is, and the load says so.
        The other shape (Seattle 2018, the protocol's templates) is known by Row_Total with
        Date and Start_time (or survey_time_start) and Location_ID or Survey_ID:
          Date, Start_time     20180802 and 0820 read as a date and clock times; time is
                               Date + Start_time, the table's time (wall clock in the zone
                               of the load: load … with timezone=America/Los_Angeles)
          count columns        Male, Female, GroupSize_1 …, gender_…, age_…, posture_…,
                               activity_…: whole numbers. Staying (0/1 columns): an empty
                               cell is 0. Moving: an empty cell is 0 when the row filled in
                               another column of its group, and stays empty when the row did
                               not count that group (Seattle counted gender in one row, group
                               sizes in the next), so where Female is not null keeps the rows
                               that counted gender
          people               Row_Total
          Location_ID          text, zeros kept: join locations on Location_ID
        The usual questions, on the shipped San Francisco samples (datasets/pldp-sf):
          staying | sum people by name, hour(startedAt)         people staying per place and hour
          staying | unpivot postureStanding, postureSitting, postureLying as posture, n |
            sum n as n by posture | let share = n / sum(n)      share by posture
          moving | sum people by every 10m                       people moving per 10 minutes
        """, examples: [
            "set timezone America/Los_Angeles; load datasets/pldp-sf/civic-center-staying.csv as staying; staying | sum people by name",
            "load datasets/pldp-sf/civic-center-staying.csv as staying; staying | unpivot age0To14, age15To24, age25To64, age65Plus as age, n | sum n as n by age | let share = round(n / sum(n), 3)",
        ]),
        Entry(name: "notebooks", summary: "Numbered results, history, :save, :record, and notebooks of scripts.", details: """
        Every result is numbered [n] as it is shown, tables and charts alike: $n is result n and _
        the last one, so a line can go on from any of them. let NAME = PIPELINE keeps one by name.
          history            the commands of this session that worked
          :save FILE.utq     write them as a script that runs again to the same results
                             (:save! FILE.utq replaces a file that is there)
          :record FILE.md    keep a notebook of everything from now on: each command and its
                             output, as Markdown (or FILE.html, one page); ## and # lines typed
                             at the prompt become headings and prose; :record off stops
          :clear             forget the numbered results and number from [1] again
        In a script, ## lines are headings and the # lines after them prose, so a lesson is one
        file that runs and reads. From the shell:
          utq notebook lesson.utq -o lesson.html   run a script, write it with its outputs (.md, .html)
          utq --step lesson.utq                    show each command, run it when Enter is pressed
          utq lesson.utq --set city=Prishtina      put Prishtina wherever the script has ${city}
        Lessons to start from: examples/lessons/ (help tour for a first walk).
        """, examples: [
            "count by legend; _ | sort count desc | limit 1",
            "count by hour; $1 | chart bar",
            "let busy = count by hour; busy | chart column",
            ":record! class.md; count by legend; :record off",
            "count by legend; history; :save! session.utq",
        ], aliases: ["notebook", "results", "history", "record", "teaching"]),
        Entry(name: "lesson", summary: "A script with exercises: questions, answers, hints and wrong answers.", details: """
        A lesson is a script (.utq) whose ## Exercise… (or ### Exercise…) headings each hold a
        question, its answer and hints, in lines that start with:
          #     the question, as prose
          #>    the answer: a command, run like any line of the script
          #?    a hint, shown one at a time when the student types hint
          #x    a wrong answer, which the grader must reject
          #+    another right answer, graded as the answer is
          #=    how it is graded: #= exact asks for the answer's columns and no others
        For example:
          ### Exercise 1
          # How many people were standing still?
          #> where legend = "Standing" | count
          #? Keep only the rows whose legend is Standing, then count them.
          #x count
        Answers are graded by their results, not their text: on the lesson's data and on
        copies with rows shuffled, some left out and numbers changed. Other columns beside the
        answer's are allowed; order counts only by the answer's own sort keys. At lesson> the
        student's session is graded as it stands: _, $n and let tables work. From the shell:
          utq lesson FILE.utq                          the lesson for a student, at a lesson> prompt
          utq lesson check FILE.utq                    every answer runs, every #x is rejected
          utq lesson report DIR -o book.html           a gradebook of the students' records
          utq notebook FILE.utq --no-answers -o x.html a handout without the answers
          utq notebook FILE.utq --no-answers -o x.ipynb the same for Jupyter, with check cells
        At the lesson> prompt: hint, skip, back, quit. In a Jupyter handout the first cell is
        :lesson FILE.utq, and a cell whose first line is check N grades the pipeline under it
        against exercise N, as lesson> does, into the same record. Hints are folded in both.
        Lessons to start from: examples/lessons/.
        """, examples: [], aliases: ["lessons", "exercise", "exercises", "grader"]),
        Entry(name: "keys", summary: "The keys of the prompt: completing, the history, stopping and leaving.", details: """
          Tab             complete the word: one Tab writes what the choices share (a column
                          of the table comes first, written whole with a space after), a
                          second Tab lists the choices
          Up, Down        the lines typed before, kept in ~/.utq_history (UTQ_HISTORY names
                          another file; empty keeps none)
          Ctrl-R          search them: type part of a line, Ctrl-R again for an older one;
                          Enter runs it, an arrow or Ctrl-E keeps it to edit, Ctrl-G gives
                          back the line as it was
          Ctrl-A, Ctrl-E  the start and the end of the line (the keys of bash)
          Ctrl-C          abandon the line being typed, or stop the command that runs
          Ctrl-D          leave utq (on an empty line)
          Ctrl-Z          stop utq; fg brings it back with the line as it was
        A line that ends in | goes on at the next prompt ( ...>). Help taller than the window
        opens in a pager: $PAGER, else less (space for the next page, q to stop); set pager off
        or UTQ_PAGER=off prints it whole.
        """, examples: ["set pager off", "set pager on"], aliases: ["keyboard", "prompt", "repl"]),
    ]
}

import Foundation
