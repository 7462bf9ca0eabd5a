import Testing
import TouchCore

@testable import TouchProtocol

/// A view's `transform` through `set`, and `class`, `transform` and `next_responder` in `views`.
@Suite(.timeLimit(.minutes(10))) struct TransformRequestTests {
    @Test func setTakesATransformPartByPart() throws {
        let line = #"{"cmd":"set","view":"v","properties":{"transform":{"translate":[10,-5],"rotate":30,"scale":[2,0.5]}}}"#
        var changes = ViewChanges()
        changes.transform = ViewTransform(translation: Point(x: 10, y: -5), rotation: 30, scaleX: 2, scaleY: 0.5)
        #expect(try Request.parse(line).result.get() == .tree(.set(view: "v", changes: changes)))
        let uniform = #"{"cmd":"set","view":"v","properties":{"transform":{"scale":3}}}"#
        changes.transform = ViewTransform(scaleX: 3, scaleY: 3)
        #expect(try Request.parse(uniform).result.get() == .tree(.set(view: "v", changes: changes)))
        changes.transform = .identity
        #expect(try Request.parse(#"{"cmd":"set","view":"v","properties":{"transform":{}}}"#).result.get() == .tree(.set(view: "v", changes: changes)))
    }

    @Test(arguments: [
        (#"{"scale":0}"#, #""properties.transform.scale": expected a finite number from 0.001 to 1000"#),
        (#"{"scale":[1,-1]}"#, #""properties.transform.scale[1]": expected a finite number from 0.001 to 1000"#),
        (#"{"rotate":1e300}"#, #""properties.transform.rotate": expected a finite number from -360000 to 360000 (degrees)"#),
        (#"{"translate":[0,2e6]}"#, #""properties.transform.translate[1]": expected a finite number from -1000000 to 1000000 (points)"#),
        (#"{"skew":1}"#, #"unknown transform part "properties.transform.skew": expected translate, rotate or scale"#),
        (#"[1,0,0,1,0,0]"#, #""properties.transform": expected an object {"translate": [x, y], "rotate": degrees, "scale": s or [sx, sy]}"#),
    ])
    func badTransformsAreRefused(transform: String, message: String) {
        let (_, result) = Request.parse(Array(#"{"cmd":"set","view":"v","properties":{"transform":\#(transform)}}"#.utf8))
        guard case .failure(let error) = result else {
            Issue.record("\(transform) was accepted")
            return
        }
        #expect(error.code.rawValue == "bad_argument")
        #expect(error.message == message)
    }

    @Test func viewsListsClassTransformAndNextResponder() throws {
        var tree = ViewTree()
        try tree.addWindow("w", WindowProperties(size: Size(width: 100, height: 100)))
        var props = ViewClass.label.defaults(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        props.transform = ViewTransform(rotation: 90)
        props.nextResponder = "w"
        try tree.addView("title", parent: "w", props)
        guard case .array(let items) = TreeDescription.views(tree) else {
            Issue.record("views is not an array")
            return
        }
        let title = try #require(items.first { $0["id"] == JSONValue.string("title") })
        #expect(title["class"] == JSONValue.string("label"))
        #expect(title["interactive"] == JSONValue.bool(false))
        #expect(title["next_responder"] == JSONValue.string("w"))
        #expect(title["transform"]?["rotate"] == JSONValue.double(90))
        #expect(title["transform"]?["scale"] == JSONValue.array([.double(1), .double(1)]))
    }
}
