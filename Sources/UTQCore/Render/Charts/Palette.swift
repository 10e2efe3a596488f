/// Colours for series and legends (the Okabe–Ito set, told apart by people with colour
/// blindness), and a light-to-dark ramp for heatmaps. SVG uses the hex values; a terminal
/// the nearest of its 256 colours.
enum Palette {
    static let hex = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#B59B00", "#666666",
                      "#1B3F8B", "#8C564B"]
    static let ansiCodes = [25, 214, 36, 166, 175, 74, 142, 242, 18, 95]

    static func svg(_ i: Int) -> String { hex[((i % hex.count) + hex.count) % hex.count] }
    static func ansi(_ i: Int) -> Int { ansiCodes[((i % ansiCodes.count) + ansiCodes.count) % ansiCodes.count] }

    /// The heatmap ramp, in terminal colours, for shade levels 1 … 4.
    static let heatANSI = [153, 75, 32, 19]

    /// A colour between light and dark blue for t in 0 … 1.
    static func heat(_ t: Double) -> String {
        let x = t.isFinite ? min(1, max(0, t)) : 0
        let light = (239.0, 246.0, 252.0), dark = (8.0, 48.0, 107.0)
        func mix(_ a: Double, _ b: Double) -> Int { Int(cells: (a + (b - a) * x).rounded()) }
        return hexColor(mix(light.0, dark.0), mix(light.1, dark.1), mix(light.2, dark.2))
    }

    static func hexColor(_ r: Int, _ g: Int, _ b: Int) -> String {
        func two(_ v: Int) -> String {
            let s = String(min(255, max(0, v)), radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + two(r) + two(g) + two(b)
    }
}
