import Testing
import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout

private typealias EventType = TouchEvdev.EventType

/// The any-device pipeline (an enum of the touch, key and motion pipelines) and the touch
/// pipeline's refusals: every device and every layout entry either sets up or is refused with a
/// reason, and nothing traps.
@Suite(.timeLimit(.minutes(10))) struct DevicePipelineTests {
    static func event(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: EventTime(microseconds: 1_000_000 + ms * 1000), type: type, code: code, value: value)
    }

    static func report(_ ms: Int64) -> InputEvent { event(ms, EventType.syn, SynCode.report, 0) }
    static func dropped(_ ms: Int64) -> InputEvent { event(ms, EventType.syn, SynCode.dropped, 0) }

    static func screen(x: AbsInfo = AbsInfo(minimum: 0, maximum: 1000), y: AbsInfo = AbsInfo(minimum: 0, maximum: 1000)) -> DeviceDescription {
        DeviceDescription(
            name: "screen", properties: [InputProperty.direct],
            codes: [EventType.key: [KeyCode.btnTouch], EventType.abs: [AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 4), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPositionX: x, AbsCode.mtPositionY: y,
            ])
    }

    static func tree(width: Double = 1000, height: Double = 500) throws -> ViewTree {
        var tree = ViewTree()
        try tree.addWindow("main", WindowProperties(size: Size(width: width, height: height)))
        return tree
    }

    static func touches(_ events: [QueuedEvent]) -> [[TouchPhase]] {
        events.compactMap { event -> [TouchPhase]? in
            guard case .touches(let frame) = event else { return nil }
            return frame.contacts.map(\.phase)
        }
    }

    @Test func eachKindGetsItsPipelineAndFeedsInPlace() throws {
        let tree = try Self.tree()
        var touch = try DevicePipeline(
            kind: .tablet, deviceID: "pen", description: Self.screen(), udevProperties: [:], spec: DeviceSpec(window: "main"), tree: tree)
        guard case .touch = touch else {
            Issue.record("a tablet is read as touches")
            return
        }
        var completed: [QueuedEvent] = []
        let down = [
            Self.event(0, EventType.abs, AbsCode.mtTrackingID, 1), Self.event(0, EventType.abs, AbsCode.mtPositionX, 500),
            Self.event(0, EventType.abs, AbsCode.mtPositionY, 500), Self.report(0),
        ]
        touch.feed(down, into: &completed)
        #expect(Self.touches(completed) == [[.began]])
        #expect(touch.deviceID == "pen" && touch.deadline == nil && touch.advance(to: EventTime(microseconds: 9_000_000)).isEmpty)
        #expect(Self.touches(touch.finish(at: EventTime(microseconds: 2_000_000))) == [[.cancelled]])

        let keys = try DevicePipeline(
            kind: .keys, deviceID: "kbd", description: DeviceDescription(name: "kbd"), udevProperties: [:], spec: DeviceSpec(window: ""), tree: tree)
        guard case .keys = keys else {
            Issue.record("a key device is read as keys")
            return
        }
        #expect(throws: DevicePipelineError.self) {
            try DevicePipeline(kind: .accelerometer, deviceID: "a", description: DeviceDescription(name: "a"), udevProperties: [:], spec: DeviceSpec(window: ""), tree: tree)
        }
    }

    /// A read with two `SYN_DROPPED`, each with its sync delta: a key whose lift was lost ends as
    /// cancelled, and nothing is left down.
    @Test func aKeyLostInADropIsCancelledAndTwoDropsLeaveNoKeyStuck() throws {
        var keys = try DevicePipeline(
            kind: .keys, deviceID: "kbd", description: DeviceDescription(name: "kbd"), udevProperties: [:], spec: DeviceSpec(window: ""),
            tree: try Self.tree())
        let read = DeviceRead(segments: [
            .events([Self.event(0, EventType.key, 30, 1), Self.report(0)]),
            .resync(dropped: Self.dropped(10), delta: []),
            .resync(dropped: Self.dropped(20), delta: [Self.event(20, EventType.key, 30, 0), Self.report(20)]),
        ])
        var completed: [QueuedEvent] = []
        keys.decode(read, into: &completed)
        let phases = completed.compactMap { event -> [PressPhase]? in
            guard case .presses(let input) = event else { return nil }
            return input.changes.map(\.phase)
        }
        #expect(phases == [[.began], [.cancelled]])
        #expect(keys.finish(at: EventTime(microseconds: 3_000_000)).isEmpty, "no key is stuck")
        #expect(keys.takeAnomalies().map(\.kind) == [.eventsDropped, .eventsDropped])
    }

    @Test func aReloadKeepsTheFingersDownOutOfTheNewLayout() throws {
        let tree = try Self.tree()
        var pipeline = try DevicePipeline(
            kind: .touchscreen, deviceID: "s", description: Self.screen(), udevProperties: [:], spec: DeviceSpec(window: "main"), tree: tree)
        var completed: [QueuedEvent] = []
        pipeline.feed([Self.event(0, EventType.abs, AbsCode.mtTrackingID, 1), Self.report(0)], into: &completed)
        pipeline = try pipeline.remapped(kind: .touchscreen, description: Self.screen(), udevProperties: [:], spec: DeviceSpec(window: "main"), tree: tree)
        completed = []
        pipeline.feed([Self.event(10, EventType.abs, AbsCode.mtPositionX, 9), Self.report(10)], into: &completed)
        pipeline.feed([Self.event(20, EventType.abs, AbsCode.mtTrackingID, -1), Self.report(20)], into: &completed)
        pipeline.feed([Self.event(30, EventType.abs, AbsCode.mtTrackingID, 2), Self.report(30)], into: &completed)
        #expect(Self.touches(completed) == [[.began]], "the old stroke stays out; the next begins")
    }

    @Test(arguments: [
        (AbsInfo(minimum: 100, maximum: 100), "has minimum 100 and maximum 100"),
        (AbsInfo(minimum: Int32.max, maximum: Int32.min), "has minimum 2147483647 and maximum -2147483648"),
    ])
    func aDeviceWhoseAxesCannotBeMappedIsRefusedWithTheReason(axis: AbsInfo, reason: String) throws {
        #expect {
            try TouchDevicePipeline(deviceID: "d", description: Self.screen(x: axis), spec: DeviceSpec(window: "main"), tree: try Self.tree())
        } throws: { error in
            (error as? DevicePipelineError)?.problem.contains("its axis ABS_MT_POSITION_X \(reason)") == true
        }
    }

    @Test func aCalibrationOutsideItsDomainIsRefused() throws {
        var spec = DeviceSpec(window: "main")
        spec.calibration = [1e300, 0, 0, 0, 1, 0]
        #expect {
            try TouchDevicePipeline(deviceID: "d", description: Self.screen(), spec: spec, tree: try Self.tree())
        } throws: { error in
            (error as? DevicePipelineError)?.problem == "its calibration's coefficient 1 is not a finite number from -1000000 to 1000000"
        }
        #expect(throws: DevicePipelineError.self) {
            try TouchDevicePipeline(
                deviceID: "d", description: Self.screen(), udevProperties: ["LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1 nan"],
                spec: DeviceSpec(window: "main"), tree: try Self.tree())
        }
    }

    /// A window of 1e19 points with a pointercal file trapped converting the window size to an
    /// integer; windows are now bounded by the layout, and the pipeline takes any size anyway.
    @Test(arguments: [1e19, 1e300, Double.infinity, Double.nan, 0])
    func aPointercalWithAnyWindowSizeNeverTraps(size: Double) throws {
        var spec = DeviceSpec(window: "main", pointercal: "/etc/pointercal")
        spec.pointercalContents = try Pointercal.parse("65536 0 0 0 65536 0 65536\n")
        let tree = try Self.tree(width: size, height: size)
        let description = Self.screen(x: AbsInfo(minimum: Int32.min, maximum: Int32.max))
        let made = Result { () throws(DevicePipelineError) in try TouchDevicePipeline(deviceID: "d", description: description, spec: spec, tree: tree) }
        switch made {
        case .success(var pipeline):
            _ = pipeline.feed(Self.event(0, EventType.abs, AbsCode.mtTrackingID, 1))
            let frame = pipeline.feed(Self.report(0))
            let location = try #require(frame?.contacts.first?.location)
            #expect(Limits.coordinate.contains(location.x) && Limits.coordinate.contains(location.y), "\(location)")
        case .failure(let error):
            // Refused for the file, or for a matrix whose coefficients are too small to tell
            // touches apart (a window of 1e300 points).
            #expect(error.problem.hasPrefix("pointercal /etc/pointercal: ") || error.problem.contains("maps the whole screen onto one line"), "\(error)")
        }
    }

    @Test func aPointercalThatDoesNotFitTheDeviceIsRefused() throws {
        var spec = DeviceSpec(window: "main", pointercal: "/etc/pointercal")
        spec.pointercalContents = try Pointercal.parse("2147483647 0 0 0 1 0 1 1 1\n")
        #expect {
            try TouchDevicePipeline(
                deviceID: "d", description: Self.screen(x: AbsInfo(minimum: Int32.min, maximum: Int32.max)), spec: spec, tree: try Self.tree())
        } throws: { error in
            (error as? DevicePipelineError)?.problem.contains("coefficient 1 of the matrix they give is not") == true
        }
    }
}
