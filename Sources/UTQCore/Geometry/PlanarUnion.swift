import Foundation

extension Planar {
    /// The union of polygons and multi-polygons (dissolving zones): one Polygon, or a
    /// MultiPolygon when the result has separate pieces, with holes where the result has them;
    /// an empty Polygon when nothing has area. Points and lines among the inputs are ignored.
    /// Shells come out clockwise and holes counterclockwise, as GEOS writes them.
    ///
    /// Each union splits all edges where they meet and finds winding numbers in one sweep;
    /// many inputs are first grouped by place and united group by group, then the results
    /// pairwise, so that edges buried inside the union drop out early (a cascaded union):
    /// about O(n log n) for n pieces, never a chain of n pairwise unions.
    public static func union(_ polygons: [Geometry]) -> Geometry {
        let space = polygons.first?.space ?? .plane
        let areas = polygons.filter { $0.kind.dimension == 2 && !$0.isEmpty }
        let cell = PlanarArrangement.gridCell(for: areas)
        guard areas.count > PlanarArrangement.piecesPerGroup else {
            var arrangement = PlanarArrangement(gridCell: cell)
            for g in areas { arrangement.addPolygons(g) }
            return arrangement.unionPolygons(space: space)
        }
        var groups: [Geometry] = []
        for group in spatialGroups(areas, size: PlanarArrangement.piecesPerGroup) {
            var arrangement = PlanarArrangement(gridCell: cell)
            for g in group { arrangement.addPolygons(g) }
            groups.append(arrangement.unionPolygons(space: space))
        }
        return PlanarArrangement.unitePairwise(groups, space: space, gridCell: cell)
    }

    /// Geometries in groups of about `size` lying near each other: sorted by the x of their
    /// boxes' centres into vertical slices, each slice by y (sort-tile-recursive), so that
    /// neighbours in the order are neighbours on the plane.
    static func spatialGroups(_ geometries: [Geometry], size: Int) -> [[Geometry]] {
        let centres = geometries.map { g -> (Double, Double) in
            let b = g.bounds!
            return ((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
        }
        var order = Array(geometries.indices).sorted { centres[$0].0 < centres[$1].0 }
        let groupCount = (geometries.count + size - 1) / size
        let sliceSize = max(1, Int(Double(groupCount).squareRoot().rounded(.up))) * size
        var start = 0
        while start < order.count {
            let end = min(order.count, start + sliceSize)
            order[start..<end].sort { centres[$0].1 < centres[$1].1 }
            start = end
        }
        return stride(from: 0, to: order.count, by: size).map { first in
            order[first..<min(order.count, first + size)].map { geometries[$0] }
        }
    }
}

extension PlanarArrangement {
    /// How many pieces one union takes at once before unions are cascaded.
    static let piecesPerGroup = 32

    /// Adds every ring of a polygon or multi-polygon, counted +1 inside it whichever way its
    /// rings were written; rings without area add nothing.
    mutating func addPolygons(_ g: Geometry, layer: Int32 = 0) {
        guard g.kind.dimension == 2 else { return }
        for part in 0..<g.partCount {
            let rings = g.ringRange(part: part)
            for r in rings {
                let area = Planar.signedRingArea(g, ring: r)
                guard area != 0 else { continue }
                addRing(g.ring(r), weight: (area > 0) == (r == rings.lowerBound) ? 1 : -1, layer: layer)
            }
        }
    }

    /// The union of partial unions, neighbours first (they are in spatial order), level by
    /// level.
    static func unitePairwise(_ unions: [Geometry], space: GeoSpace, gridCell: Double) -> Geometry {
        var level = unions.filter { !$0.isEmpty }
        guard !level.isEmpty else { return Geometry(kind: .polygon, space: space, xs: [], ys: [], rings: [0], parts: [0]) }
        while level.count > 1 {
            var next: [Geometry] = []
            next.reserveCapacity((level.count + 1) / 2)
            for k in stride(from: 0, to: level.count, by: 2) {
                guard k + 1 < level.count else { next.append(level[k]); continue }
                var arrangement = PlanarArrangement(gridCell: gridCell)
                arrangement.addPolygons(level[k], layer: 1); arrangement.addPolygons(level[k + 1], layer: 2)
                next.append(arrangement.unionPolygons(space: space))
            }
            level = next
        }
        return level[0]
    }

    /// The region where the winding number is positive, as polygons.
    func unionPolygons(space: GeoSpace) -> Geometry {
        var arrangement = self
        arrangement.node()
        let boundary = arrangement.boundaryEdges()
        let rings = arrangement.assembleRings(boundary)
        return arrangement.polygons(from: rings, space: space)
    }
}
