import Testing
import TouchCore
import TouchLayout

/// `forward` on windows and views: read into the application's modes, refused with the choices
/// when misspelt.
@Suite struct ForwardLayoutTests {
    static let layout = """
        [[window]]
        id = "screen"
        size = [1280, 800]
        forward = "unclaimed"

        [[view]]
        id = "app"
        parent = "screen"
        frame = [0, 0, 1280, 800]
        forward = "all"

        [[view]]
        id = "corner"
        parent = "screen"
        frame = [0, 0, 100, 100]
        forward = "none"

        [[view]]
        id = "plain"
        parent = "app"
        frame = [0, 0, 10, 10]
        """

    @Test func windowsAndViewsSayWhatGoesOn() throws {
        let document = try LayoutLoader.parse(Self.layout, file: "forward.toml")
        #expect(document.forwardModes == ["screen": .unclaimed, "app": .all, "corner": ForwardMode.none])
        let app = try document.makeApplication()
        #expect(app.forwardModes == document.forwardModes)
        #expect(app.forwardingWindows == ["screen"])
    }

    @Test func aLayoutWithoutForwardForwardsNothing() throws {
        let text = Self.layout.replacingOccurrences(of: "forward = \"unclaimed\"\n", with: "")
            .replacingOccurrences(of: "forward = \"all\"\n", with: "")
        let app = try LayoutLoader.parse(text, file: "plain.toml").makeApplication()
        #expect(!app.forwardsTouches)
        #expect(app.forwardingWindows.isEmpty)
    }

    @Test func aMisspeltModeIsRefusedWithTheChoices() {
        let text = Self.layout.replacingOccurrences(of: "forward = \"all\"", with: "forward = \"unclamed\"")
        #expect {
            try LayoutLoader.parse(text, file: "bad.toml")
        } throws: { error in
            let description = (error as? LayoutErrors)?.description ?? ""
            return description.contains("forward") && description.contains("\"none\", \"unclaimed\", \"all\"")
                && description.contains("bad.toml:10:") && description.contains("did you mean \"unclaimed\"")
        }
    }
}
