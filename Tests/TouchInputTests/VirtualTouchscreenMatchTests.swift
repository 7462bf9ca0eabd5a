import Testing
import TouchEvdev
import TouchInput
import TouchLayout

/// touchd's own virtual touchscreens are never taken, whatever the layout's entries say.
@Suite struct VirtualTouchscreenMatchTests {
    @Test func touchdsOwnVirtualTouchscreenIsNeverMatched() {
        var spec = DeviceSpec(match: DeviceMatchSpec(), window: "screen")
        spec.match.kind = .any
        let facts = DeviceFacts.matching(name: "touchd virtual touchscreen screen", kind: .touchscreen)
        let match = DeviceMatcher.match(facts, in: [spec])
        #expect(match == .virtualTouchscreen)
        #expect(match.explanation.contains("touchd's own virtual touchscreen"))
        #expect(DeviceMatcher.match(DeviceFacts.matching(name: "ILITEK touch", kind: .touchscreen), in: [spec]) == .matched(index: 0, spec: spec))
    }
}
