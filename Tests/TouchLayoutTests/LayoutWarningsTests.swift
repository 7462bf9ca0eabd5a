import Testing
import TouchCore
import TouchLayout

/// What `touchd check` warns about in layouts that load: controls whose actions reach no handler,
/// handlers no action reaches, device regions outside their window.
@Suite(.timeLimit(.minutes(10))) struct LayoutWarningsTests {
    /// A window with two branches: `home` (a controller's root view, with the button `ok`) and
    /// `search`, a view that can become first responder; `extra` is the rest of the file.
    func warnings(_ extra: String) throws -> [String] {
        let document = try load(
            """
            [[window]]
            id = "w"
            size = [1000, 800]

            [[controller]]
            id = "home"
            view = "home.root"

            [[view]]
            id = "home.root"
            parent = "w"
            frame = [0, 0, 1000, 400]

            [[view]]
            id = "ok"
            parent = "home.root"
            frame = [10, 10, 200, 100]

            [[view]]
            id = "search"
            parent = "w"
            frame = [0, 400, 1000, 400]
            can_become_first_responder = true

            [[control]]
            view = "ok"
            kind = "button"
            [[control.target]]
            event = "touch_up_inside"
            action = "save"

            """ + extra)
        return LayoutWarnings.warnings(document: document, app: try document.makeApplication())
    }

    @Test func aHandlerOnTheControlsChainIsReachedAndNothingIsSaid() throws {
        #expect(try warnings(#"[[handler]]\#nresponder = "home"\#non = "action"\#nselector = "save"\#naction = "saved""#).isEmpty)
    }

    @Test func aHandlerOnlyTheFirstResponderMayReachIsReachedToo() throws {
        // With search as first responder, the action walks search → w → application → app_delegate.
        #expect(try warnings(#"[[handler]]\#nresponder = "search"\#non = "action"\#nselector = "save"\#naction = "saved""#).isEmpty)
    }

    @Test func aHandlerOffEveryWayTheActionCanTakeIsSaidNeverToRun() throws {
        // Another button's view: on no chain from ok, nor from the first responder candidates.
        let found = try warnings(
            """
            [[view]]
            id = "elsewhere"
            parent = "search"
            frame = [0, 0, 10, 10]

            [[handler]]
            responder = "elsewhere"
            on = "action"
            selector = "save"
            action = "saved"
            """)
        #expect(found.contains { $0.hasPrefix(#"handler of "elsewhere" on action "save" never runs: "elsewhere" is not on the way of the action from "ok""#) }, "\(found)")
    }

    @Test func aHandlerBehindAnEarlierTakerIsSaidNeverToRun() throws {
        let found = try warnings(
            """
            [[handler]]
            responder = "home.root"
            on = "action"
            selector = "save"
            action = "first"

            [[handler]]
            responder = "home"
            on = "action"
            selector = "save"
            action = "second"
            """)
        #expect(found.count == 1 && found[0].hasPrefix(#"handler of "home" on action "save" never runs"#), "\(found)")
    }

    @Test func aRegionInsideItsWindowIsFineAndOneReachingOutIsSaid() throws {
        #expect(try warnings("[[device]]\nwindow = \"w\"\nregion = [0, 0, 1000, 800]\n").isEmpty)
        let found = try warnings("[[device]]\nwindow = \"w\"\nregion = [-10, 0, 500, 800]\n")
        #expect(found == [#"device[0].region [-10, 0, 500, 800] reaches outside window "w" (1000×800 points): touches mapped there land on no view"#])
    }

    @Test func everyBundledLayoutHasNoControlOrRegionWarning() throws {
        for name in ["kiosk.toml", "media-kiosk.toml", "seed-experiment.toml"] {
            let path = configPath(name)
            let document = try LayoutLoader.load(path: path)
            let found = LayoutWarnings.warnings(document: document, app: try document.makeApplication(file: path))
            #expect(!found.contains { $0.contains("never runs") || $0.contains("sends no action") || $0.contains("region") }, "\(name): \(found)")
        }
    }

    @Test func theKioskLayoutPassesItsOwnTouchTargetLint() throws {
        let path = configPath("kiosk.toml")
        let document = try LayoutLoader.load(path: path)
        let found = LayoutWarnings.warnings(document: document, app: try document.makeApplication(file: path))
        #expect(found.isEmpty, "\(found)")
    }
}
