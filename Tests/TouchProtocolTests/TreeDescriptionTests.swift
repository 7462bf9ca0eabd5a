import Testing
import TouchCore
import TouchProtocol

/// The `views` reply: every property a layout or a `set` can give a window or a view, under the
/// layout's key, and every gesture recognizer with its settings and state.
@Suite(.timeLimit(.minutes(10))) struct TreeDescriptionTests {
    static func tree() throws -> ViewTree {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 400, height: 300), isHidden: true, isUserInteractionEnabled: false, hitTestPolicy: .capture))
        try tree.addView(
            "panel", parent: "w",
            ViewProperties(
                frame: Rect(x: 10, y: 20, width: 200, height: 100), boundsOrigin: Point(x: 5, y: 6), clipsToBounds: true,
                isMultipleTouchEnabled: true, isExclusiveTouch: true, hitExpansion: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
        try tree.addView("inner", parent: "panel", ViewProperties(frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        try tree.updateView("panel") { $0.hitTestPolicy = .redirect("inner") }
        return tree
    }

    static func item(_ id: String, in value: JSONValue) -> JSONValue? {
        guard case .array(let items) = value else { return nil }
        return items.first { $0["id"] == .string(id) }
    }

    @Test func everyViewPropertyIsListed() throws {
        let views = TreeDescription.views(try Self.tree())
        let panel = try #require(Self.item("panel", in: views))
        #expect(panel["bounds_origin"] == .array([.double(5), .double(6)]))
        #expect(panel["clips_to_bounds"] == true && panel["multiple_touch"] == true && panel["exclusive_touch"] == true)
        #expect(panel["hit_expansion"] == .array([1.0, 2, 3, 4].map { JSONValue.double($0) }))
        #expect(panel["hit_test"] == "redirect" && panel["redirect"] == "inner")
        #expect(panel["gesture_recognizers"] == .array([]))
        let inner = try #require(Self.item("inner", in: views))
        #expect(inner["hit_test"] == "default" && inner["redirect"] == .null && inner["exclusive_touch"] == false)
        let window = try #require(Self.item("w", in: views))
        #expect(window["hidden"] == true && window["interactive"] == false && window["hit_test"] == "capture")
    }

    @Test func recognizersAreListedWithTheirSettingsAndState() throws {
        let tap = GestureRecognizerSpec(id: "panel.tap", view: "panel", kind: .tap(taps: 2, touches: 1), action: "zoom")
        let swipe = GestureRecognizerSpec(
            id: "panel.swipe", view: "panel", kind: .swipe(directions: [.left, .up], touches: 1, minimumDistanceMillimetres: 10, maximumDuration: 0.5),
            requiresFailureOf: ["panel.tap"])
        let views = TreeDescription.views(try Self.tree(), recognizers: [tap, swipe], states: ["panel.tap": .possible])
        #expect(Self.item("panel", in: views)?["gesture_recognizers"] == .array(["panel.tap", "panel.swipe"]))
        let listedTap = try #require(Self.item("panel.tap", in: views))
        #expect(listedTap["kind"] == "gesture_recognizer" && listedTap["type"] == "tap" && listedTap["view"] == "panel")
        #expect(listedTap["taps"] == .int(2) && listedTap["touches"] == .int(1) && listedTap["action"] == "zoom" && listedTap["state"] == "possible")
        let listedSwipe = try #require(Self.item("panel.swipe", in: views))
        #expect(listedSwipe["directions"] == .array(["left", "up"]) && listedSwipe["requires_failure_of"] == .array(["panel.tap"]))
        #expect(listedSwipe["state"] == .null)
    }
}
