import Foundation

/// `cell(position, size)`: the square of a grid that a point falls in, as a polygon, so
/// `count by cell(position, 50)` counts by place and `chart map` fills the squares by their
/// count. On a plan the squares are `size` units wide from the origin; in lng/lat they are
/// about `size` metres each way: rows of equal latitude, each row cut into equal spans of
/// longitude as wide as `size` metres at its middle, so every cell is the same everywhere
/// whatever the data, and two tables' cells line up.
enum GridCells {
    /// One degree of latitude, in metres (on WGS 84, averaged over the latitudes).
    static let metresPerDegreeLatitude = 111_132.954

    static let spec = FunctionSpec(
        name: "cell", aliases: ["grid"], usage: "cell(point, size)",
        summary: "The square of a grid a point falls in, about size metres across in lng/lat (the plan's units on a plan), as a polygon to count by or map.",
        examples: ["count by cell(xy(x, y), 206) | sort count desc | limit 3"], arity: 2...2,
        resultType: { t in
            if let e = GeometryFunctions.geometryArgs("cell", t) { return .failure(e) }
            return numericArgs("cell", [t[1]]).map { .failure($0) } ?? .success(.geometry)
        },
        evaluate: { args, _, n, context in
            guard case .constant(let v, _) = args[1], let size = v.doubleValue, size.isFinite, size > 0 else {
                throw Diagnostic("a cell's size is one number above 0, the same for every row", hint: "as in: cell(position, 50)")
            }
            let a = GeometryArgument(args[0])
            let space = a.space
            if space == .lnglat && size < 0.01 {
                throw Diagnostic("a cell of \(NumberText.double(size)) m is smaller than GPS can tell apart", hint: "sizes are in metres: cell(position, 50)")
            }
            var b = GeometryBuilder(space: space)
            var valid = Bitmap(count: n, value: true)
            for row in 0..<n {
                if row & 0xFFF == 0, context.cancel?.isCancelled == true { throw CancellationError() }
                guard let g = a.at(row), let p = GeoMeasure.representative(g), p.x.isFinite, p.y.isFinite,
                      let square = cell(p.x, p.y, size: size, space: space) else {
                    b.appendNull(); valid[row] = false; continue
                }
                b.append(square)
            }
            return .column(Column(name: "", storage: .geometry(b.storage), validity: valid))
        })

    /// The square holding (x, y); nil where lng/lat is out of range.
    static func cell(_ x: Double, _ y: Double, size: Double, space: GeoSpace) -> Geometry? {
        let corners: (x0: Double, y0: Double, x1: Double, y1: Double)
        switch space {
        case .plane:
            let i = (x / size).rounded(.down), j = (y / size).rounded(.down)
            corners = (i * size, j * size, (i + 1) * size, (j + 1) * size)
        case .lnglat:
            guard abs(y) <= 90, abs(x) <= 180 else { return nil }
            let rowHeight = size / metresPerDegreeLatitude
            let j = (y / rowHeight).rounded(.down)
            let middle = max(-89.999, min(89.999, (j + 0.5) * rowHeight))
            let width = min(360, size / LocalFrame(lat: middle).metresPerDegreeLon)
            let i = (x / width).rounded(.down)
            corners = (i * width, j * rowHeight, (i + 1) * width, (j + 1) * rowHeight)
        }
        return .polygon([[(corners.x0, corners.y0), (corners.x1, corners.y0), (corners.x1, corners.y1), (corners.x0, corners.y1)]], space: space)
    }
}
