import Testing
import TouchCore
import TouchEvdev

/// Contacts at the panel's edges land inside the window, on every mapping path: the axis range
/// maps into the region's half-open area, as a view's bounds are, so a touch at an axis maximum
/// (which real panels report) hits the view under it instead of nothing.
@Suite(.timeLimit(.minutes(10))) struct EdgeMappingTests {
    static let x = AbsInfo(minimum: 0, maximum: 4095)
    static let y = AbsInfo(minimum: -100, maximum: 2000)
    static let window = Size(width: 1920, height: 1080)

    /// Every transform a layout can ask for: rotations, swaps, inversions and calibration matrices
    /// (udev's rotations, a shrinking one, one that pushes contacts outside).
    static let transforms: [(String, MappingTransform)] = {
        var all: [(String, MappingTransform)] = []
        for rotation in Rotation.allCases {
            for swap in [false, true] {
                for (ix, iy) in [(false, false), (true, false), (false, true), (true, true)] {
                    all.append(("rotation \(rotation.rawValue) swap \(swap) invert \(ix) \(iy)", MappingTransform(rotation: rotation, swapsAxes: swap, invertsX: ix, invertsY: iy)))
                }
            }
        }
        for text in ["0 -1 1 1 0 0", "-1 0 1 0 -1 1", "0 1 0 -1 0 1", "0.5 0 0.25 0 0.5 0.25", "1.2 0 -0.1 0 1.3 -0.2"] {
            all.append(("calibration \(text)", MappingTransform(calibration: try! CalibrationMatrix.parse(udevProperty: text))))
        }
        return all
    }()

    /// The device's corners and the middles of its edges.
    static let edgePoints: [(Int32, Int32)] = {
        let xs = [x.minimum, (x.minimum + x.maximum) / 2, x.maximum]
        let ys = [y.minimum, (y.minimum + y.maximum) / 2, y.maximum]
        return xs.flatMap { px in ys.map { (px, $0) } }.filter { $0.0 != xs[1] || $0.1 != ys[1] }
    }()

    static let regions: [Rect?] = [nil, Rect(x: 0, y: 0, width: 960, height: 1080), Rect(x: 960, y: 540, width: 960, height: 540)]

    @Test(arguments: transforms.indices)
    func everyEdgeAndCornerLandsInsideTheRegionAndHitsItsView(index: Int) throws {
        let (name, transform) = Self.transforms[index]
        for region in Self.regions {
            let target = MappingTarget(windowSize: Self.window, region: region, pointsPerMillimetre: 4)
            let mapping = DeviceMapping(axes: MappingAxes(x: Self.x, y: Self.y), transform: transform, target: target)
            let area = region ?? Rect(x: 0, y: 0, width: Self.window.width, height: Self.window.height)
            var tree = ViewTree()
            try tree.addWindow("w", WindowProperties(size: Self.window))
            try tree.addView("area", parent: "w", ViewProperties(frame: area))
            for (px, py) in Self.edgePoints {
                let p = mapping.location(x: px, y: py)
                #expect(p.x >= area.minX && p.x < area.maxX && p.y >= area.minY && p.y < area.maxY, "\(name), \(String(describing: region)): (\(px), \(py)) → \(p)")
                #expect(tree.hitTest(p, inWindow: "w")?.view == "area", "\(name), \(String(describing: region)): (\(px), \(py)) → \(p) hits no view")
            }
        }
    }

    /// A contact past the axis range (which the kernel lets through) is clamped onto the area too.
    @Test func contactsBeyondTheRangeAreClampedInside() {
        let mapping = DeviceMapping(axes: MappingAxes(x: Self.x, y: Self.y), target: MappingTarget(windowSize: Self.window, pointsPerMillimetre: 4))
        for (px, py) in [(Int32.max, Int32.max), (Int32.min, Int32.min), (5000, -5000), (-1, 2001)] as [(Int32, Int32)] {
            let p = mapping.location(x: px, y: py)
            #expect(p.x >= 0 && p.x < Self.window.width && p.y >= 0 && p.y < Self.window.height, "(\(px), \(py)) → \(p)")
        }
    }

    /// The far edges themselves are never reported: the largest location is a millionth of a point
    /// before it, the finest step a written number shows, so that it is written inside too.
    @Test func theFarCornerIsTheLastPointBeforeTheEdge() {
        let mapping = DeviceMapping(axes: MappingAxes(x: Self.x, y: Self.y), target: MappingTarget(windowSize: Self.window, pointsPerMillimetre: 4))
        let p = mapping.location(x: Self.x.maximum, y: Self.y.maximum)
        #expect(p == Point(x: 1920 - Limits.writtenCoordinateStep, y: 1080 - Limits.writtenCoordinateStep))
        let middle = mapping.location(x: 2048, y: 950)
        #expect(abs(middle.x - 1920 * 2048 / 4095) < 1e-9 && abs(middle.y - 540) < 1e-9, "inside the range nothing changes")
    }
}
