import TouchCore

/// Turns what the core produced into protocol messages. See `docs/protocol.md` for every field.
///
/// Messages for dispatched events are written straight into bytes with a ``JSONWriter`` (they are
/// sent for every frame); their text is exactly what building them from ``JSONValue``s would give.
public enum MessageEncoder {
    /// The messages for one dispatched event, in order: hits (each with its hit-test trace when
    /// traced), then touches, presses, the remote-control command or the motion, then the event and
    /// its responder calls (when recorded), then gestures, then actions with each first-responder
    /// change right after the action that made it (UIKit changes the first responder inside the
    /// action method, before the next action is sent).
    ///
    /// ``messages(for:interest:)`` writes only what its `interest` wants: a topic no client
    /// subscribes to costs nothing, nor does a form of `touch` message nobody asked for (see
    /// ``touchMessages(of:forms:to:)``).
    public static func messages(for report: DispatchReport) -> [OutboundMessage] { messages(for: report, interest: .everything) }

    /// The messages for one dispatched event that `interest` wants (see ``messages(for:)``).
    ///
    /// With `hitsSent`, the report's `hit` and `hit_test` messages were sent already
    /// (``hitMessages(_:interest:batch:)``), ahead of the rest of their frame, and are left out.
    public static func messages(for report: DispatchReport, interest: MessageInterest, hitsSent: Bool = false) -> [OutboundMessage] {
        var marks = InputRateMarks()
        return messages(for: report, interest: interest, hitsSent: hitsSent, marks: &marks)
    }

    /// The messages for one dispatched event that `interest` wants, leaving out the samples of the
    /// input's rate sent ahead of it (``arrivalMessages(of:forms:marks:)``); `marks` then forgets
    /// what the event consumed.
    public static func messages(
        for report: DispatchReport, interest: MessageInterest, hitsSent: Bool, marks: inout InputRateMarks
    ) -> [OutboundMessage] {
        // All the event's messages in one buffer: one allocation for their bodies.
        var batch = MessageBatch(messages: roughCount(of: report, interest: interest, hitsSent: hitsSent) + 2)
        add(report, interest: interest, hitsSent: hitsSent, marks: &marks, to: &batch)
        return batch.finish()
    }

    /// The same messages (``messages(for:interest:hitsSent:marks:)``), written in `batch`, which
    /// keeps its room for the next event's: what the daemon does for every event, without an
    /// allocation once the batch is warm. The messages are the batch's until its next use.
    public static func messages(
        for report: DispatchReport, interest: MessageInterest, hitsSent: Bool, marks: inout InputRateMarks,
        batch: inout MessageBatch
    ) -> [OutboundMessage] {
        batch.removeAll()
        add(report, interest: interest, hitsSent: hitsSent, marks: &marks, to: &batch)
        return batch.take()
    }

    /// About how many messages a report makes.
    private static func roughCount(of report: DispatchReport, interest: MessageInterest, hitsSent: Bool) -> Int {
        (hitsSent ? 0 : report.hits.count) + (interest.wants(.touches) ? report.changedTouches.count : 0) + report.presses.count
            + report.gestures.count + report.actions.count + report.firstResponderChanges.count
    }

    /// Adds the messages of one dispatched event to `batch` (see ``messages(for:interest:hitsSent:marks:)``).
    private static func add(
        _ report: DispatchReport, interest: MessageInterest, hitsSent: Bool, marks: inout InputRateMarks, to batch: inout MessageBatch
    ) {
        let touches = interest.wants(.touches) ? report.changedTouches.count : 0
        if !hitsSent && !report.hits.isEmpty { addHits(report.hits, interest: interest, to: &batch) }
        if touches > 0 { touchMessages(of: report.changedTouches, forms: interest.touchForms, after: marks, to: &batch) }
        if !marks.isEmpty { marks.dispatched(report.changedTouches) }
        for press in report.presses { add(press, to: &batch) }
        if let command = report.remoteControl { add(command, responder: report.startResponder, to: &batch) }
        if let motion = report.motion { add(motion, responder: report.startResponder, to: &batch) }
        addCalls(of: report, to: &batch)
        if interest.wants(.gestures) { for gesture in report.gestures { add(gesture, to: &batch) } }
        var change = 0
        let changes = report.firstResponderChanges
        let actions = interest.wants(.actions)
        for (i, action) in report.actions.enumerated() {
            while change < changes.count && report.actionsBeforeFirstResponderChanges[change] <= i {
                add(changes[change], to: &batch)
                change += 1
            }
            if actions { add(action, to: &batch) }
        }
        for remaining in changes[change...] { add(remaining, to: &batch) }
    }

    /// The `hit` messages (and `hit_test` traces) of a touch-down frame's hits, the first messages
    /// of their frame, sent ahead of the rest; written in a `batch` kept warm from one event to the
    /// next (see ``messages(for:interest:hitsSent:marks:batch:)``).
    public static func hitMessages(_ hits: [HitRecord], interest: MessageInterest, batch: inout MessageBatch) -> [OutboundMessage] {
        batch.removeAll()
        addHits(hits, interest: interest, to: &batch)
        return batch.take()
    }

    private static func addHits(_ hits: [HitRecord], interest: MessageInterest, to batch: inout MessageBatch) {
        guard interest.wants(.hits) || interest.wants(.hitTests) else { return }
        // By index: a hit copied out of the list would retain each of its parts.
        for i in hits.indices {
            add(hitAt: i, of: hits, to: &batch)
            if !hits[i].trace.isEmpty { addTrace(of: hits[i], to: &batch) }
        }
    }

    /// One message in a batch of its own.
    private static func single(_ add: (inout MessageBatch) -> Void) -> OutboundMessage {
        var batch = MessageBatch(messages: 1)
        add(&batch)
        return batch.finish()[0]
    }

    public static func message(for press: Press) -> OutboundMessage { single { add(press, to: &$0) } }

    static func add(_ press: Press, to batch: inout MessageBatch) {
        batch.add(
            topic: .presses, views: press.responder.map { [$0] } ?? [], droppable: false,
            members: [
                ("type", "press"), ("time", .double(press.timestamp.seconds)), ("press", .int(Int64(press.id))), ("phase", .string(press.phase.rawValue)),
                ("key", .string(press.keyName)), ("code", .int(Int64(press.keyCode))), ("device", .string(press.device)),
                ("window", id(press.window)), ("responder", id(press.responder)),
            ])
    }

    public static func message(for command: RemoteControlInput, responder: ResponderID?) -> OutboundMessage {
        single { add(command, responder: responder, to: &$0) }
    }

    static func add(_ command: RemoteControlInput, responder: ResponderID?, to batch: inout MessageBatch) {
        batch.add(
            topic: .remoteControl, views: responder.map { [$0] } ?? [], droppable: false,
            members: [
                ("type", "remote_control"), ("time", .double(command.timestamp.seconds)), ("subtype", .string(command.subtype.rawValue)),
                ("key", .string(command.keyName)), ("device", .string(command.device)), ("responder", id(responder)),
            ])
    }

    public static func message(for motion: MotionInput, responder: ResponderID?) -> OutboundMessage {
        single { add(motion, responder: responder, to: &$0) }
    }

    static func add(_ motion: MotionInput, responder: ResponderID?, to batch: inout MessageBatch) {
        batch.add(
            topic: .motion, views: responder.map { [$0] } ?? [], droppable: false,
            members: [
                ("type", "motion"), ("time", .double(motion.timestamp.seconds)), ("subtype", .string(motion.subtype.rawValue)),
                ("phase", .string(motion.phase.rawValue)), ("device", .string(motion.device)), ("responder", id(responder)),
            ])
    }

    public static func message(for change: FirstResponderChange) -> OutboundMessage { single { add(change, to: &$0) } }

    static func add(_ change: FirstResponderChange, to batch: inout MessageBatch) {
        var members: [(String, JSONValue)] = [("type", "first_responder")]
        if let time = change.timestamp { members.append(("time", .double(time.seconds))) }
        members += [
            ("window", .string(change.window.rawValue)), ("first_responder", id(change.current)), ("previous", id(change.previous)),
            ("cause", .string(change.cause.name)),
        ]
        if case .handler(let action) = change.cause { members.append(("action", .string(action))) }
        batch.add(topic: .firstResponder, views: [change.current, change.previous].compactMap { $0 }, droppable: false, members: members)
    }

    public static func message(for gesture: GestureRecord) -> OutboundMessage { single { add(gesture, to: &$0) } }

    static func add(_ gesture: GestureRecord, to batch: inout MessageBatch) {
        let droppable = gesture.state == .changed
        batch.add(topic: .gestures, views: [gesture.view, gesture.recognizer], droppable: droppable) { w in
            w.member("type"); w.literal(#""gesture""#)
            w.member("time"); w.double(gesture.timestamp.seconds)
            w.member("recognizer"); w.string(gesture.recognizer.rawValue)
            w.member("kind"); w.string(gesture.kind)
            w.member("view"); w.string(gesture.view.rawValue)
            w.member("state"); w.string(gesture.state.rawValue)
            w.member("location"); point(gesture.location, to: &w)
            w.member("touches"); ids(gesture.touches, to: &w)
            members(of: gesture.values, to: &w)
        }
    }

    public static func message(for hit: HitRecord) -> OutboundMessage { single { add(hitAt: 0, of: [hit], to: &$0) } }

    /// Adds the `hit` message of `hits[i]`, read in place.
    static func add(hitAt i: Int, of hits: [HitRecord], to batch: inout MessageBatch) {
        let place = batch.hitPlaces.json(device: hits[i].device, window: hits[i].window, view: hits[i].view, path: hits[i].viewPath)
        batch.add(topic: .hits, views: hits[i].viewPath, droppable: false) { w in
            w.member("type"); w.literal(#""hit""#)
            w.member("time"); w.double(hits[i].timestamp.seconds)
            w.member("touch"); w.int(Int64(clamping: hits[i].touch))
            place.withUnsafeBufferPointer { w.members(raw: $0) }
            w.member("point"); point(hits[i].pointInWindow, to: &w)
            w.member("point_in_view")
            if let p = hits[i].pointInView { point(p, to: &w) } else { w.null() }
            w.member("tap_count"); w.int(Int64(hits[i].tapCount))
            w.member("delivered"); w.bool(hits[i].delivery == .delivered)
            if hits[i].delivery != .delivered {
                w.member("reason"); w.string(reason(hits[i].delivery))
            }
        }
    }

    /// The message of a dispatched touch (its locations in its view are those of its dispatch),
    /// with its merged samples in `coalesced`.
    public static func message(for touch: Touch) -> OutboundMessage {
        single { add(touchAt: 0, of: [touch], samples: true, forms: .perTouch, to: &$0) }
    }

    /// The `touch` and `touch_frame` messages of an event's changed touches, in each form `forms`
    /// asks for. Without merged samples, and nothing sent ahead, every `touch` form is the same: one
    /// message per touch, for all. Otherwise the `latest` and `coalesced` forms have one message per
    /// touch each (one for both where a touch has no samples), then the `input` form one message per
    /// sample not sent ahead (`marks`), in time order (``inputMessages(of:samples:to:)``). Then the
    /// `frames` form, one message per input frame (``frameMessages(of:samples:to:)``).
    static func touchMessages(of touches: [Touch], forms: TouchForms, after marks: InputRateMarks, to batch: inout MessageBatch) {
        let sentAhead = !marks.isEmpty && touches.contains { marks.sent($0.id) > .distantPast }
        let samples = forms.isDisjoint(with: .atArrival) ? [] : samples(of: touches, after: marks)
        if !sentAhead && !touches.contains(where: { !$0.coalescedSamples.isEmpty }) {
            if !forms.isDisjoint(with: .perTouch) {
                for i in touches.indices { add(touchAt: i, of: touches, samples: true, forms: .perTouch, to: &batch) }
            }
        } else {
            perTouchMessages(of: touches, forms: forms, to: &batch)
            if forms.contains(.input) { inputMessages(of: touches, samples: samples, to: &batch) }
        }
        if forms.contains(.frames) { frameMessages(of: touches, samples: samples, to: &batch) }
    }

    /// The `latest` and `coalesced` forms' messages of touches some of which have merged samples.
    private static func perTouchMessages(of touches: [Touch], forms: TouchForms, to batch: inout MessageBatch) {
        if !forms.isDisjoint(with: [.latest, .coalesced]) {
            for i in touches.indices {
                if touches[i].coalescedSamples.isEmpty {
                    add(touchAt: i, of: touches, samples: true, forms: [.latest, .coalesced], to: &batch)
                    continue
                }
                if forms.contains(.latest) { add(touchAt: i, of: touches, samples: false, forms: .latest, to: &batch) }
                if forms.contains(.coalesced) { add(touchAt: i, of: touches, samples: true, forms: .coalesced, to: &batch) }
            }
        }
    }

    /// Adds the message of `touches[i]`, read field by field from the array (passing a whole touch
    /// on would copy it); with its merged samples in `coalesced` when `samples` is set.
    static func add(touchAt i: Int, of touches: [Touch], samples: Bool, forms: TouchForms, to batch: inout MessageBatch) {
        let droppable = touches[i].phase == .moved || touches[i].phase == .stationary
        batch.add(topic: .touches, view: touches[i].view, droppable: droppable, touchForms: forms) { w in
            w.member("type"); w.literal(#""touch""#)
            w.member("time"); w.double(touches[i].timestamp.seconds)
            w.member("touch"); w.int(Int64(touches[i].id))
            w.member("phase"); phase(touches[i].phase, to: &w)
            w.member("device"); w.string(touches[i].device)
            w.member("window"); id(touches[i].window, to: &w)
            w.member("view"); id(touches[i].view, to: &w)
            w.member("location"); point(touches[i].locationInWindow, to: &w)
            w.member("previous_location"); point(touches[i].previousLocationInWindow, to: &w)
            w.member("location_in_view")
            if let p = touches[i].locationInView { point(p, to: &w) } else { w.null() }
            w.member("previous_location_in_view")
            if let p = touches[i].previousLocationInView { point(p, to: &w) } else { w.null() }
            w.member("tap_count"); w.int(Int64(touches[i].tapCount))
            w.member("major_radius"); w.double(touches[i].majorRadius)
            w.member("major_radius_tolerance"); w.double(touches[i].majorRadiusTolerance)
            w.member("force"); w.double(touches[i].force)
            w.member("maximum_possible_force"); w.double(touches[i].maximumPossibleForce)
            if samples && !touches[i].coalescedSamples.isEmpty {
                w.member("coalesced")
                coalesced(touches[i].coalescedSamples, to: &w)
            }
        }
    }

    /// Merged samples as `[[time, x, y, force, major_radius], ...]`, oldest first, in window points.
    static func coalesced(_ samples: [TouchSample], to w: inout JSONWriter) {
        w.literal("[")
        // A touch's force and radius change less often than its samples come: most are copies.
        var kept = (force: JSONWriter.WrittenNumber(), radius: JSONWriter.WrittenNumber())
        for k in samples.indices {
            if k > 0 { w.literal(",") }
            w.sample(
                time: samples[k].timestamp.seconds, x: samples[k].locationInWindow.x, y: samples[k].locationInWindow.y,
                force: samples[k].force, radius: samples[k].majorRadius, kept: &kept)
        }
        w.literal("]")
    }

    public static func message(for action: ActionRecord) -> OutboundMessage { single { add(action, to: &$0) } }

    static func add(_ action: ActionRecord, to batch: inout MessageBatch) {
        let views = [action.responder, action.view].compactMap { $0 }
        batch.add(topic: .actions, views: views, action: action.name, droppable: false) { w in
            w.member("type"); w.literal(#""action""#)
            w.member("time"); w.double(action.timestamp.seconds)
            w.member("name"); w.string(action.name)
            w.member("responder"); id(action.responder, to: &w)
            w.member("event"); w.string(action.trigger?.rawValue ?? "gesture_\(action.gestureState?.rawValue ?? "")")
            w.member("view"); id(action.view, to: &w)
            w.member("touches"); ids(action.touches, to: &w)
            w.member("payload"); w.value(action.payload)
            switch action.trigger {
            case .pressesBegan, .pressesEnded, .pressesCancelled:
                w.member("keys")
                w.array { w in
                    for key in action.detail {
                        w.element()
                        w.string(key)
                    }
                }
            case .remoteControl, .motionBegan, .motionEnded, .motionCancelled:
                w.member("subtype")
                if let subtype = action.detail.first { w.string(subtype) } else { w.null() }
            case .touchesBegan, .touchesMoved, .touchesEnded, .touchesCancelled, .action, nil: break
            }
            if let control = action.control { add(control, to: &w) }
        }
    }

    /// A control action's own members, kept apart from the layout's `payload`: the control, its
    /// event, the action it sent, and its value (toggles and sliders).
    static func add(_ control: ControlActionRecord, to w: inout JSONWriter) {
        w.member("control"); w.string(control.control.rawValue)
        w.member("control_event"); w.string(control.event.rawValue)
        w.member("control_action"); w.string(control.action)
        if let value = control.value {
            w.member("value")
            w.value(value)
        }
    }

    /// The greeting every client gets first; with `role`, it tells the client what it may do.
    public static func hello(daemonVersion: String, role: ClientRole? = nil) -> OutboundMessage {
        var members: [(String, JSONValue)] = [
            ("type", "hello"), ("protocol", .int(Int64(protocolVersion))), ("daemon", .string(daemonVersion)),
            ("topics", .array(Topic.allCases.map { .string($0.rawValue) })),
        ]
        if let role { members.append(("role", .string(role.rawValue))) }
        return OutboundMessage(topic: nil, droppable: false, members: members)
    }

    static func id(_ id: ResponderID?) -> JSONValue { id.map { .string($0.rawValue) } ?? .null }

    static func id(_ id: ResponderID?, to w: inout JSONWriter) {
        if let id { w.string(id.rawValue) } else { w.null() }
    }

    static func ids(_ touches: [TouchID], to w: inout JSONWriter) {
        w.array { w in
            for touch in touches {
                w.element()
                w.int(Int64(touch))
            }
        }
    }

    /// A point as `{"x":..,"y":..}`.
    public static func point(_ p: Point) -> JSONValue { .object([("x", .double(p.x)), ("y", .double(p.y))]) }

    static func point(_ p: Point, to w: inout JSONWriter) { w.point(x: p.x, y: p.y) }

    /// A touch phase's name, quoted.
    static func phase(_ phase: TouchPhase, to w: inout JSONWriter) {
        switch phase {
        case .began: w.literal(#""began""#)
        case .moved: w.literal(#""moved""#)
        case .stationary: w.literal(#""stationary""#)
        case .ended: w.literal(#""ended""#)
        case .cancelled: w.literal(#""cancelled""#)
        }
    }

    static func reason(_ delivery: TouchDelivery) -> String {
        switch delivery {
        case .delivered: "delivered"
        case .noView: "no_view"
        case .multipleTouchDisabled: "multiple_touch_disabled"
        case .exclusiveTouchElsewhere: "exclusive_touch_elsewhere"
        }
    }
}

/// The `device`, `window`, `view` and `path` members of `hit` messages, written once per hit view
/// and kept: a kiosk's touches land on the same few views again and again, from the same device,
/// and finding a view's members costs less than writing its device's, its window's, its own and
/// its path's names.
struct HitPlaces {
    private var byView: [ResponderID: (device: String, window: ResponderID?, path: [ResponderID], json: [UInt8])] = [:]
    /// The most views kept; past it, the table starts again.
    static let keptAtMost = 256

    /// The members for a hit of `device` on `view` (in `window`, along `path`): kept ones when the
    /// view's were written for that device, window and path (a view's path changes when the tree
    /// does), else written now.
    mutating func json(device: String, window: ResponderID?, view: ResponderID?, path: [ResponderID]) -> [UInt8] {
        guard let view else { return Self.write(device: device, window: window, view: view, path: path) }
        if let kept = byView[view], kept.device == device, kept.window == window, kept.path == path { return kept.json }
        let json = Self.write(device: device, window: window, view: view, path: path)
        if byView.count >= Self.keptAtMost { byView.removeAll(keepingCapacity: true) }
        byView[view] = (device, window, path, json)
        return json
    }

    private static func write(device: String, window: ResponderID?, view: ResponderID?, path: [ResponderID]) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.member("device"); w.string(device)
        w.member("window"); MessageEncoder.id(window, to: &w)
        w.member("view"); MessageEncoder.id(view, to: &w)
        w.member("path")
        w.array { w in
            for view in path {
                w.element()
                w.string(view.rawValue)
            }
        }
        return w.bytes
    }
}
