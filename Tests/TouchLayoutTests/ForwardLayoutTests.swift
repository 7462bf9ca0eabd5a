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

/// The forwarding example of docs/layout.md loads, and forwards as the text says.
@Suite struct ForwardDocumentedExampleTests {
    static func documentedExample() throws -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast(3)
        let text = try String(contentsOfFile: parts.joined(separator: "/") + "/docs/layout.md", encoding: .utf8)
        let section = try #require(text.range(of: "## Forwarding to the compositor"))
        let start = try #require(text.range(of: "```toml\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func theAppForwardsAndTheServiceCornerKeepsItsTouches() throws {
        var app = try LayoutLoader.parse(try Self.documentedExample(), file: "docs/layout.md").makeApplication()
        #expect(app.forwardingWindows == ["screen"])
        func tap(_ id: UInt64, _ x: Double, _ y: Double, _ t: Double) -> [DispatchReport] {
            let down = InputFrame(device: "d", window: "screen", timestamp: InputTime(seconds: t), contacts: [InputContact(id: id, phase: .began, location: Point(x: x, y: y))])
            let up = InputFrame(device: "d", window: "screen", timestamp: InputTime(seconds: t + 0.05), contacts: [InputContact(id: id, phase: .ended, location: Point(x: x, y: y))])
            return app.send(down) + app.send(up)
        }
        #expect(tap(1, 500, 500, 1).flatMap(\.forwarded).map(\.phase) == [.began, .ended])
        #expect(tap(2, 1850, 50, 2).flatMap(\.forwarded).isEmpty)
    }
}
