/// The tour of utq: a short walk through the market-square study. The script is the same
/// text as examples/tour.utq (a test keeps them equal), built in so `help tour` works
/// wherever utq is installed, without the repository beside it.
public enum Tour {
    public static let script = #"""
#!/usr/bin/env utq
# A tour of utq on the Stavanger market-square study: five 5-minute behaviour-mapping
# sessions on Thursday 23 March 2017, recorded with the Behaviour Mapper app.
# Run it with: utq --echo examples/tour.utq

## Load the project and look at it
load datasets/market.json
describe

## How many of each kind of behaviour?
count by legend

## The researcher's table: behaviour by session (hour of day, Europe/Oslo)
count by legend, hour

## One behaviour through the day
where legend = "Bike" | count by hour

## Directions: the mean direction of movement, for the three commonest behaviours
# Angles go round: the mean direction of 179° and -179° is 180°, which avg (0°) gets wrong.
circmean angle, count by legend | sort count desc | top 3

## Who was seen without a direction? (the app writes 999; utq reads it as null)
where angle is null | count by legend

## Minute by minute in the lunchtime session
where hour = 12 | count by every 1m

## Bring in the weather of each session and count by it
load datasets/market-weather.csv as weather
market | join weather on hour | count by temperature_c, sky, wind

"""#

    /// `help tour`: the tour's steps, each heading with the commands under it.
    public static var help: String {
        var out = "tour — the market-square study in a few steps\n\n"
        out += "Type the commands as they come, or let utq show them and run each when you press Enter:\n"
        out += "  utq --step examples/tour.utq\n"
        var step = 0
        var started = false
        for block in LiterateScript.blocks(in: SourceText(name: "tour.utq", text: script)) {
            switch block {
            case .heading(_, let text):
                step += 1
                started = true
                out += "\n" + String(step).leftPadded(3) + "  " + text + "\n"
            case .command(let command) where started:
                out += "       " + command.text.replacingOccurrences(of: "\n", with: "\n       ") + "\n"
            case .command(let command):
                out += "\n       " + command.text + "\n"
            case .prose, .hint, .wrong, .answer, .alternative, .rule:
                continue
            }
        }
        return out
    }
}
