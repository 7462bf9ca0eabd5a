import Testing
import TouchCore

/// Hit-testing through transforms against a plain reference: each step down undoes the view's
/// translation, rotation and scale one after the other (the inverse transform), then tests the
/// point as if nothing were transformed. Seeded random trees: the same trees on every run.
@Suite(.timeLimit(.minutes(10))) struct TransformPropertyTests {
    /// A small deterministic generator (a linear congruential one), so every run tests the same trees.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
    }

    struct RefView {
        var id: ResponderID
        var props: ViewProperties
        var children: [Int] = []
    }

    static func randomTransform(_ r: inout Seeded) -> ViewTransform {
        guard r.next(4) != 0 else { return .identity }
        let angles: [Double] = [0, 90, 180, 270, -90, 30, 45, -60, 12.5, 200]
        let scales: [Double] = [1, 2, 0.5, 1.5, 0.25, 3]
        return ViewTransform(
            translation: Point(x: Double(r.next(81)) - 40, y: Double(r.next(81)) - 40), rotation: angles[r.next(angles.count)],
            scaleX: scales[r.next(scales.count)], scaleY: scales[r.next(scales.count)])
    }

    /// A window with up to 40 views in up to 4 levels, some hidden, not interactive or expanded.
    static func randomTree(_ r: inout Seeded) -> (ViewTree, [RefView]) {
        var tree = ViewTree()
        try! tree.addWindow("window", WindowProperties(size: Size(width: 600, height: 600)))
        var views = [RefView(id: "window", props: ViewProperties(frame: Rect(x: 0, y: 0, width: 600, height: 600)))]
        for n in 0..<(5 + r.next(36)) {
            let parent = r.next(views.count)
            var props = ViewProperties(
                frame: Rect(
                    x: Double(r.next(300)) + 0.25, y: Double(r.next(300)) + 0.5, width: Double(r.next(200) + 1),
                    height: Double(r.next(200) + 1)))
            props.boundsOrigin = Point(x: Double(r.next(3) * 10), y: Double(r.next(2) * -5))
            props.hitExpansion = EdgeInsets(
                top: Double(r.next(2) * 7), left: Double(r.next(2) * 5), bottom: 0, right: Double(r.next(2) * 9))
            props.isHidden = r.next(12) == 0
            props.isUserInteractionEnabled = r.next(12) != 0
            props.transform = randomTransform(&r)
            let id = ResponderID("v\(n)")
            guard (try? tree.addView(id, parent: views[parent].id, props)) != nil else { continue }
            views.append(RefView(id: id, props: props))
            views[parent].children.append(views.count - 1)
        }
        return (tree, views)
    }

    /// The point in the superview's coordinates taken into the view's: minus the center and the
    /// translation, turned back, divided by the scale, plus the bounds' center.
    static func reference(_ p: Point, into props: ViewProperties) -> Point {
        let t = props.transform
        let u = p - props.frame.center - t.translation
        let rotation = ViewTransform(rotation: t.rotation).matrix
        let (cos, sin) = (rotation.a, rotation.b)
        let turned = Point(x: cos * u.x + sin * u.y, y: -sin * u.x + cos * u.y)
        return Point(x: turned.x / t.scaleX, y: turned.y / t.scaleY) + props.bounds.center
    }

    /// UIKit's hit-test, untransformed, with the reference conversion at each step down.
    static func referenceHit(_ views: [RefView], _ index: Int, _ point: Point) -> (ResponderID, Point)? {
        let props = views[index].props
        guard !props.isHidden, props.isUserInteractionEnabled, props.alpha >= 0.01, props.hitArea.contains(point) else { return nil }
        for child in views[index].children.reversed() {
            if let hit = referenceHit(views, child, reference(point, into: views[child].props)) { return hit }
        }
        return (views[index].id, point)
    }

    @Test func transformedHitTestingAnswersAsTheReference() {
        var compared = 0
        var transformedHits = 0
        for seed in 1...300 {
            var r = Seeded(state: UInt64(seed))
            let (tree, views) = Self.randomTree(&r)
            for _ in 0..<60 {
                let point = Point(x: Double(r.next(6000)) / 10 + 0.013, y: Double(r.next(6000)) / 10 + 0.029)
                let expected = Self.referenceHit(views, 0, point)
                let found = tree.hitTest(point, inWindow: "window")
                #expect(found?.view == expected?.0, "seed \(seed) at \(point)")
                if let a = found?.pointInView, let b = expected?.1 {
                    #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6, "seed \(seed) at \(point): \(a) vs \(b)")
                }
                // Converting back to the window gives the point again.
                if let view = found?.view, let local = found?.pointInView, let back = tree.convert(local, toWindowFrom: view) {
                    #expect(abs(back.x - point.x) < 1e-6 && abs(back.y - point.y) < 1e-6, "seed \(seed) at \(point)")
                }
                compared += 1
                if let view = found?.view, tree.properties(of: view)?.transform.isIdentity == false { transformedHits += 1 }
            }
        }
        #expect(compared == 18_000)
        #expect(transformedHits > 1_000, "the trees must exercise transformed views: \(transformedHits) hits")
    }
}
