import Testing
import TouchCore

@testable import TouchLayout

/// `class`, `transform`, `next_responder` and `hit_test = "redirect-inside-target"` in a layout.
@Suite(.timeLimit(.minutes(10))) struct ViewClassTransformKeysTests {
    /// Seed 000 §3.2 and seed 004: an image view and a label take no touches unless told to; a
    /// touch on them goes to their superview.
    static let gallery = """
        [[window]]
        id = "w"
        size = [400, 400]

        [[view]]
        id = "card"
        parent = "w"
        frame = [0, 0, 400, 400]

        [[view]]
        id = "photo"
        parent = "card"
        class = "image"
        frame = [0, 0, 200, 200]

        [[view]]
        id = "caption"
        parent = "card"
        class = "label"
        frame = [0, 200, 200, 40]

        [[view]]
        id = "zoomable"
        parent = "card"
        class = "image"
        interactive = true
        frame = [200, 0, 200, 200]

        [[view]]
        id = "ok"
        parent = "card"
        class = "button"
        frame = [200, 300, 100, 40]
        transform = { translate = [10, 0], rotate = 90, scale = [2, 1] }

        """

    @Test func imagesAndLabelsTakeNoTouchesByDefault() throws {
        let document = try load(Self.gallery)
        #expect(document.view("photo")?.isUserInteractionEnabled == false)
        #expect(document.view("caption")?.isUserInteractionEnabled == false)
        #expect(document.view("zoomable")?.isUserInteractionEnabled == true, "the layout's key overrides the class")
        #expect(document.view("card")?.viewClass == .view)
        let app = try document.makeApplication()
        #expect(app.tree.hitTest(Point(x: 50, y: 50), inWindow: "w")?.view == "card")
        #expect(app.tree.hitTest(Point(x: 50, y: 210), inWindow: "w")?.view == "card")
        #expect(app.tree.hitTest(Point(x: 250, y: 50), inWindow: "w")?.view == "zoomable")
    }

    @Test func aButtonIsAControlAndATransformIsRead() throws {
        let document = try load(Self.gallery)
        #expect(document.controls.map(\.view) == ["ok"])
        #expect(document.controls.first?.kind == .button)
        #expect(document.view("ok")?.transform == ViewTransform(translation: Point(x: 10, y: 0), rotation: 90, scaleX: 2, scaleY: 1))
        // A [[control]] of its own replaces the class's.
        let toggled = Self.gallery + "[[control]]\nview = \"ok\"\nkind = \"toggle\"\n"
        #expect(try load(toggled).controls.map(\.kind) == [.toggle(isOn: false)])
    }

    @Test func aScaledButtonIsAsLargeAsItIsDrawn() throws {
        // 40 points at 6.4 points per millimetre: 6.25 mm, too small for a finger; scaled twice, 12.5 mm.
        let base = """
            [[window]]
            id = "w"
            size = [400, 400]

            [[view]]
            id = "b"
            parent = "w"
            class = "button"
            frame = [0, 0, 40, 40]

            """
        let small = try load(base)
        #expect(LayoutWarnings.targetSizeWarnings(document: small, tree: try small.makeApplication().tree).count == 1)
        let scaled = try load(base + "transform = { scale = 2 }\n")
        #expect(LayoutWarnings.targetSizeWarnings(document: scaled, tree: try scaled.makeApplication().tree).isEmpty)
    }

    @Test func anUnknownClassIsReportedWithItsPlace() {
        let text = Self.gallery.replacingOccurrences(of: "class = \"label\"", with: "class = \"lable\"")
        check(
            singleIssue(text), kind: .invalidValue, keyPath: "view[2].class", line: line(of: "class = \"lable\"", in: text),
            mentions: ["\"label\"", "expected one of"])
    }

    @Test func badTransformsAreReportedWithWhatIsExpected() {
        for (bad, key, phrase) in [
            ("scale = 0", "view[4].transform.scale", "0.001"), ("scale = [1, -2]", "view[4].transform.scale[1]", "0.001"),
            ("rotate = \"90\"", "view[4].transform.rotate", "number"), ("rotate = nan", "view[4].transform.rotate", "finite"),
            ("translate = [1e9, 0]", "view[4].transform.translate[0]", "1000000"), ("skew = 3", "view[4].transform.skew", "unknown key"),
        ] {
            let text = Self.gallery.replacingOccurrences(of: "translate = [10, 0], rotate = 90, scale = [2, 1]", with: bad)
            let issue = singleIssue(text)
            #expect(issue?.keyPath == key, "\(bad): \(String(describing: issue))")
            #expect(issue?.line == line(of: "transform = {", in: text), "\(bad)")
            #expect(issue?.description.contains(phrase) == true, "\(bad): \(String(describing: issue))")
        }
    }

    static let chain = """
        [[window]]
        id = "w"
        size = [400, 400]
        root_controller = "home"

        [[controller]]
        id = "home"
        view = "root"

        [[view]]
        id = "root"
        parent = "w"
        frame = [0, 0, 400, 400]

        [[view]]
        id = "panel"
        parent = "root"
        frame = [0, 0, 200, 200]
        next_responder = "home"

        [[view]]
        id = "field"
        parent = "panel"
        frame = [0, 0, 100, 40]

        """

    @Test func nextResponderOverridesTheChain() throws {
        let app = try load(Self.chain).makeApplication()
        #expect(app.tree.responderChain(from: "field") == ["field", "panel", "home", "w", "application", "app_delegate"])
    }

    @Test func nextResponderMustNameAResponderAndMakeNoCycle() {
        let unknown = Self.chain.replacingOccurrences(of: "next_responder = \"home\"", with: "next_responder = \"hom\"")
        check(
            singleIssue(unknown), kind: .unknownReference, keyPath: "view[1].next_responder",
            line: line(of: "next_responder", in: unknown), mentions: ["unknown next responder \"hom\"", "did you mean"])
        let cycle = Self.chain.replacingOccurrences(of: "next_responder = \"home\"", with: "next_responder = \"field\"")
        check(
            singleIssue(cycle), kind: .cycle, keyPath: "view[1].next_responder", line: line(of: "next_responder", in: cycle),
            mentions: [#""panel" → "field" → "panel""#, "app delegate"])
        let controllerCycle = Self.chain.replacingOccurrences(of: "view = \"root\"", with: "view = \"root\"\nnext_responder = \"panel\"")
        let issue = singleIssue(controllerCycle)
        #expect(issue?.keyPath == "view[1].next_responder" || issue?.keyPath == "controller[0].next_responder", "\(String(describing: issue))")
        #expect(issue?.kind == .cycle)
    }

    @Test func redirectInsideTargetIsReadAndNeedsADescendant() throws {
        let text = """
            [[window]]
            id = "w"
            size = [320, 480]

            [[view]]
            id = "topView"
            parent = "w"
            frame = [0, 0, 320, 480]
            hit_test = "redirect-inside-target"
            redirect = "underButton"

            [[view]]
            id = "underButton"
            parent = "topView"
            frame = [100, 200, 120, 44]

            [[view]]
            id = "scrollView"
            parent = "topView"
            frame = [0, 0, 320, 480]

            """
        let app = try load(text).makeApplication()
        #expect(app.tree.hitTest(Point(x: 150, y: 220), inWindow: "w")?.view == "underButton")
        #expect(app.tree.hitTest(Point(x: 10, y: 10), inWindow: "w")?.view == "scrollView")
        let missing = text.replacingOccurrences(of: "redirect = \"underButton\"\n", with: "")
        #expect(singleIssue(missing)?.description.contains(#"required by hit_test = "redirect-inside-target""#) == true)
    }
}
