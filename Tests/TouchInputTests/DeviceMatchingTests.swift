import Testing
import TouchEvdev
import TouchInput
import TouchLayout

@Suite(.timeLimit(.minutes(10))) struct DeviceMatchingTests {
    let atmel = DeviceFacts.matching(
        name: "Atmel maXTouch Touchscreen", vendor: 0x03eb, product: 0x8c1f, kind: .touchscreen,
        idPath: "pci-0000:00:14.0-usb-0:2:1.0", idSerial: "Atmel_1234", devnode: "/dev/input/event5")

    @Test func theFirstEntryWhoseEveryCriterionHoldsWins() {
        let specs = [
            DeviceSpec(match: DeviceMatchSpec(kind: .touchpad), window: "pad"),
            DeviceSpec(match: DeviceMatchSpec(kind: .touchscreen, name: "Atmel*", usb: USBID("03eb:8c1f")), window: "main"),
            DeviceSpec(match: DeviceMatchSpec(), window: "fallback"),
        ]
        guard case .matched(let index, let spec) = DeviceMatcher.match(atmel, in: specs) else {
            Issue.record("no match")
            return
        }
        #expect(index == 1)
        #expect(spec.window == "main")
    }

    /// A pen node is read like a touchscreen unless the layout chooses: a `tablet` entry before the
    /// touchscreen one takes pens, and `ignore = true` leaves them alone.
    @Test func aLayoutChoosesWhatBecomesOfPenNodes() throws {
        let pen = DeviceFacts.matching(name: "Wacom Pen", vendor: 0x056a, product: 0x5146, kind: .tablet, devnode: "/dev/input/event7")
        let touchscreenOnly = [DeviceSpec(match: DeviceMatchSpec(kind: .touchscreen), window: "main")]
        guard case .matched = DeviceMatcher.match(pen, in: touchscreenOnly) else {
            Issue.record("a touchscreen entry takes pen displays")
            return
        }
        var ignorePens = DeviceSpec(match: DeviceMatchSpec(kind: .tablet), window: "")
        ignorePens.ignore = true
        let specs = [ignorePens, DeviceSpec(match: DeviceMatchSpec(kind: .touchscreen), window: "main")]
        let penMatch = DeviceMatcher.match(pen, in: specs)
        #expect(penMatch == .ignored(index: 0))
        #expect(penMatch.explanation == "device[0] takes it and ignores it (ignore = true)")
        guard case .matched(let index, _) = DeviceMatcher.match(atmel, in: specs) else {
            Issue.record("the finger touchscreen is still taken")
            return
        }
        #expect(index == 1)
        #expect(DeviceKindFilter.tablet.accepts(.tablet) && !DeviceKindFilter.tablet.accepts(.touchscreen))
        #expect(DeviceKindFilter.tablet.rejection(of: .touchscreen) == "kind is touchscreen, not tablet")
    }

    @Test func everyCriterionCanExcludeAndSaysWhy() {
        let specs = [
            DeviceSpec(match: DeviceMatchSpec(kind: .touchpad), window: "a"),
            DeviceSpec(match: DeviceMatchSpec(name: "eGalax*"), window: "b"),
            DeviceSpec(match: DeviceMatchSpec(usb: USBID("0eef:0001")), window: "c"),
            DeviceSpec(match: DeviceMatchSpec(idPath: "platform-i8042"), window: "d"),
            DeviceSpec(match: DeviceMatchSpec(idSerial: "other"), window: "e"),
            DeviceSpec(match: DeviceMatchSpec(devnode: "/dev/input/event9"), window: "f"),
        ]
        guard case .unmatched(let reasons) = DeviceMatcher.match(atmel, in: specs) else {
            Issue.record("matched")
            return
        }
        #expect(reasons.count == 6)
        #expect(reasons[0].contains("not touchpad"))
        #expect(reasons[1].contains("does not match \"eGalax*\""))
        #expect(reasons[2].contains("03eb:8c1f is not 0eef:0001"))
        #expect(reasons[3].contains("ID_PATH"))
        #expect(reasons[4].contains("ID_SERIAL"))
        #expect(reasons[5].contains("event9"))
        #expect(DeviceMatcher.match(atmel, in: []).explanation == "no [[device]] entry in the layout")
    }

    @Test func keyboardsAreNeverTakenByAnAnyEntry() {
        let keyboard = DeviceFacts.matching(name: "AT Translated Set 2 keyboard", kind: .other)
        #expect(keyboard.kind == .other)
        #expect(DeviceMatcher.match(keyboard, in: [DeviceSpec(window: "main")]) != .matched(index: 0, spec: DeviceSpec(window: "main")))
    }
}
