import Foundation
import Testing
import TouchCore
import TouchLayout

/// The complete example in `docs/layout.md` is a valid layout that behaves as the text says.
@Suite(.timeLimit(.minutes(10))) struct DocumentedExampleTests {
    /// The first ```toml block after the "A complete example" heading of docs/layout.md.
    static func documentedExample() throws -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TouchDaemonTests/DocumentedExampleTests.swift
        let text = try String(contentsOfFile: parts.joined(separator: "/") + "/docs/layout.md", encoding: .utf8)
        let section = try #require(text.range(of: "## A complete example"))
        let rest = text[section.upperBound...]
        let start = try #require(rest.range(of: "```toml\n"))
        let end = try #require(rest[start.upperBound...].range(of: "\n```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    func tap(_ app: inout Application, _ x: Double, _ y: Double, at t: Double, id: UInt64) -> [String] {
        var actions: [String] = []
        for (dt, phase) in [(0.0, TouchPhase.began), (0.08, .ended)] {
            let frame = InputFrame(
                device: "d", window: "main", timestamp: InputTime(seconds: t + dt), contacts: [InputContact(id: id, phase: phase, location: Point(x: x, y: y))])
            actions += app.send(frame).flatMap(\.actions).map(\.name)
        }
        return actions
    }

    @Test func theCompleteExampleLoadsAndBehavesAsDescribed() throws {
        let document = try LayoutLoader.parse(try Self.documentedExample(), file: "docs/layout.md")
        var app = try document.makeApplication(file: "docs/layout.md")
        #expect(app.tree.viewCount == 8)
        #expect(tap(&app, 300, 400, at: 1, id: 1) == ["open"])
        #expect(tap(&app, 900, 400, at: 2, id: 2) == ["open"])
        // A finger dragged 100 points across a tile is no tap.
        var dragged: [String] = []
        for step in 0...10 {
            let phase: TouchPhase = step == 0 ? .began : step == 10 ? .ended : .moved
            let frame = InputFrame(device: "d", window: "main", timestamp: InputTime(seconds: 2.5 + Double(step) * 0.016), contacts: [
                InputContact(id: 9, phase: phase, location: Point(x: 300 + Double(step) * 10, y: 400)),
            ])
            dragged += app.send(frame).flatMap(\.actions).map(\.name)
        }
        #expect(dragged.isEmpty)
        // The 40-point help button, 8 points outside its frame: within its 10-point expansion.
        #expect(tap(&app, 1212, 30, at: 3, id: 3) == ["help"])
        // The dialog, once shown: its backdrop takes touches around the panel, and the OK button's
        // action walks the chain to the dialog controller's handler.
        try app.updateView("dialog.root") { $0.isHidden = false }
        #expect(tap(&app, 300, 400, at: 4, id: 4) == ["dialog.dismiss"])
        #expect(tap(&app, 340 + 320 + 100, 250 + 200 + 40, at: 5, id: 5) == ["confirmed"])
    }

    /// touchd-layout(5)'s example: a valid layout whose button is a control (an action on
    /// touch_up_inside), not a touches_ended handler.
    @Test func theLayoutManPagesExampleIsAValidLayoutWithAButtonControl() throws {
        let page = try String(contentsOfFile: Binaries.repository + "/man/touchd-layout.5.in", encoding: .utf8)
        let section = try #require(page.range(of: "A window with one button"))
        let start = try #require(page[section.upperBound...].range(of: ".nf\n"))
        let end = try #require(page[start.upperBound...].range(of: "\n.fi"))
        let text = page[start.upperBound..<end.lowerBound].replacingOccurrences(of: "\\-", with: "-")
        let document = try LayoutLoader.parse(text, file: "touchd-layout.5")
        #expect(document.handlers.isEmpty)
        #expect(document.controls.map(\.view) == ["ok"])
        #expect(document.controls.first?.targets.map(\.event.rawValue) == ["touch_up_inside"])
        #expect(document.daemon.controlGroups == [.name("kiosk-app")])
    }
}
