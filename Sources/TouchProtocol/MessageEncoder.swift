import TouchCore

/// Turns what the core produced into protocol messages. See `docs/protocol.md` for every field.
public enum MessageEncoder {
    /// The messages for one dispatched event, in order: hits, then touches, presses, the
    /// remote-control command or the motion, then gestures, actions and first-responder changes.
    public static func messages(for report: DispatchReport, tree: ViewTree) -> [OutboundMessage] {
        var out: [OutboundMessage] = []
        out.reserveCapacity(report.hits.count + report.changedTouches.count + report.actions.count)
        for hit in report.hits { out.append(message(for: hit)) }
        for touch in report.changedTouches { out.append(message(for: touch, tree: tree)) }
        for press in report.presses { out.append(message(for: press)) }
        if let command = report.remoteControl { out.append(message(for: command, responder: report.startResponder)) }
        if let motion = report.motion { out.append(message(for: motion, responder: report.startResponder)) }
        for gesture in report.gestures { out.append(message(for: gesture)) }
        for action in report.actions { out.append(message(for: action)) }
        for change in report.firstResponderChanges { out.append(message(for: change)) }
        return out
    }

    public static func message(for press: Press) -> OutboundMessage {
        OutboundMessage(
            topic: .presses, views: press.responder.map { [$0] } ?? [], droppable: false,
            members: [
                ("type", "press"), ("time", .double(press.timestamp)), ("press", .int(Int64(press.id))), ("phase", .string(press.phase.rawValue)),
                ("key", .string(press.keyName)), ("code", .int(Int64(press.keyCode))), ("device", .string(press.device)),
                ("window", id(press.window)), ("responder", id(press.responder)),
            ])
    }

    public static func message(for command: RemoteControlInput, responder: ResponderID?) -> OutboundMessage {
        OutboundMessage(
            topic: .remoteControl, views: responder.map { [$0] } ?? [], droppable: false,
            members: [
                ("type", "remote_control"), ("time", .double(command.timestamp)), ("subtype", .string(command.subtype.rawValue)),
                ("key", .string(command.keyName)), ("device", .string(command.device)), ("responder", id(responder)),
            ])
    }

    public static func message(for motion: MotionInput, responder: ResponderID?) -> OutboundMessage {
        OutboundMessage(
            topic: .motion, views: responder.map { [$0] } ?? [], droppable: false,
            members: [
                ("type", "motion"), ("time", .double(motion.timestamp)), ("subtype", .string(motion.subtype.rawValue)),
                ("phase", .string(motion.phase.rawValue)), ("device", .string(motion.device)), ("responder", id(responder)),
            ])
    }

    public static func message(for change: FirstResponderChange) -> OutboundMessage {
        var members: [(String, JSONValue)] = [("type", "first_responder")]
        if let time = change.timestamp { members.append(("time", .double(time))) }
        members += [
            ("window", .string(change.window.rawValue)), ("first_responder", id(change.current)), ("previous", id(change.previous)),
            ("cause", .string(change.cause.name)),
        ]
        if case .handler(let action) = change.cause { members.append(("action", .string(action))) }
        return OutboundMessage(
            topic: .firstResponder, views: [change.current, change.previous].compactMap { $0 }, droppable: false, members: members)
    }

    public static func message(for gesture: GestureRecord) -> OutboundMessage {
        var members: [(String, JSONValue)] = [
            ("type", "gesture"), ("time", .double(gesture.timestamp)), ("recognizer", .string(gesture.recognizer.rawValue)),
            ("kind", .string(gesture.kind)), ("view", .string(gesture.view.rawValue)), ("state", .string(gesture.state.rawValue)),
            ("location", point(gesture.location)), ("touches", .array(gesture.touches.map { .int(Int64($0)) })),
        ]
        members += gesture.values
        let droppable = gesture.state == .changed
        return OutboundMessage(topic: .gestures, views: [gesture.view, gesture.recognizer], droppable: droppable, members: members)
    }

    public static func message(for hit: HitRecord) -> OutboundMessage {
        var members: [(String, JSONValue)] = [
            ("type", "hit"), ("time", .double(hit.timestamp)), ("touch", .int(Int64(hit.touch))),
            ("device", .string(hit.device)), ("window", id(hit.window)), ("view", id(hit.view)),
            ("path", .array(hit.viewPath.map { .string($0.rawValue) })),
            ("point", point(hit.pointInWindow)), ("point_in_view", hit.pointInView.map(point) ?? .null),
            ("tap_count", .int(Int64(hit.tapCount))), ("delivered", .bool(hit.delivery == .delivered)),
        ]
        if hit.delivery != .delivered { members.append(("reason", .string(reason(hit.delivery)))) }
        return OutboundMessage(topic: .hits, views: hit.viewPath, droppable: false, members: members)
    }

    public static func message(for touch: Touch, tree: ViewTree) -> OutboundMessage {
        let inView = touch.view.flatMap { touch.location(in: $0, of: tree) }
        let previousInView = touch.view.flatMap { touch.previousLocation(in: $0, of: tree) }
        var members: [(String, JSONValue)] = [
            ("type", "touch"), ("time", .double(touch.timestamp)), ("touch", .int(Int64(touch.id))),
            ("phase", .string(touch.phase.rawValue)), ("device", .string(touch.device)),
            ("window", id(touch.window)), ("view", id(touch.view)),
            ("location", point(touch.locationInWindow)), ("previous_location", point(touch.previousLocationInWindow)),
            ("location_in_view", inView.map(point) ?? .null),
            ("previous_location_in_view", previousInView.map(point) ?? .null), ("tap_count", .int(Int64(touch.tapCount))),
            ("major_radius", .double(touch.majorRadius)), ("major_radius_tolerance", .double(touch.majorRadiusTolerance)),
            ("force", .double(touch.force)), ("maximum_possible_force", .double(touch.maximumPossibleForce)),
        ]
        if !touch.coalescedSamples.isEmpty {
            members.append(
                ("coalesced", .array(touch.coalescedSamples.map { .object([("time", .double($0.timestamp)), ("location", point($0.locationInWindow))]) })))
        }
        let droppable = touch.phase == .moved || touch.phase == .stationary
        return OutboundMessage(topic: .touches, views: touch.view.map { [$0] } ?? [], droppable: droppable, members: members)
    }

    public static func message(for action: ActionRecord) -> OutboundMessage {
        var members: [(String, JSONValue)] = [
            ("type", "action"), ("time", .double(action.timestamp)), ("name", .string(action.name)),
            ("responder", .string(action.responder.rawValue)),
            ("event", .string(action.trigger?.rawValue ?? "gesture_\(action.gestureState?.rawValue ?? "")")),
            ("view", id(action.view)), ("touches", .array(action.touches.map { .int(Int64($0)) })),
            ("payload", action.payload),
        ]
        if let trigger = action.trigger {
            switch trigger {
            case .pressesBegan, .pressesEnded, .pressesCancelled: members.append(("keys", .array(action.detail.map { .string($0) })))
            case .remoteControl, .motionBegan, .motionEnded, .motionCancelled:
                members.append(("subtype", action.detail.first.map { .string($0) } ?? .null))
            case .touchesBegan, .touchesMoved, .touchesEnded, .touchesCancelled, .action: break
            }
        }
        var views = [action.responder]
        if let view = action.view { views.append(view) }
        return OutboundMessage(topic: .actions, views: views, action: action.name, droppable: false, members: members)
    }

    /// The greeting every client gets first.
    public static func hello(daemonVersion: String) -> OutboundMessage {
        OutboundMessage(
            topic: nil, droppable: false,
            members: [
                ("type", "hello"), ("protocol", .int(Int64(protocolVersion))), ("daemon", .string(daemonVersion)),
                ("topics", .array(Topic.allCases.map { .string($0.rawValue) })),
            ])
    }

    static func id(_ id: ResponderID?) -> JSONValue { id.map { .string($0.rawValue) } ?? .null }

    /// A point as `{"x":..,"y":..}`.
    public static func point(_ p: Point) -> JSONValue { .object([("x", .double(p.x)), ("y", .double(p.y))]) }

    static func reason(_ delivery: TouchDelivery) -> String {
        switch delivery {
        case .delivered: "delivered"
        case .noView: "no_view"
        case .multipleTouchDisabled: "multiple_touch_disabled"
        case .exclusiveTouchElsewhere: "exclusive_touch_elsewhere"
        }
    }
}
