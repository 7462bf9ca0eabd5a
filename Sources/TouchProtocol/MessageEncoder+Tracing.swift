import TouchCore

/// The diagnostic messages of the `calls` and `hit_tests` topics: what the seeds log. They exist
/// only in reports recorded with responder calls or hit-test traces, which the daemon turns on
/// while someone subscribes to them.
extension MessageEncoder {
    /// A touch-down's hit-test trace (topic `hit_tests`): every view's `hitTest` entered, with the
    /// point in its coordinates, and its answer with the reason, in the order they happened.
    static func addTrace(of hit: HitRecord, to batch: inout MessageBatch) {
        guard !hit.trace.isEmpty else { return }
        let steps: [JSONValue] = hit.trace.map { step in
            switch step.kind {
            case .enter(let point):
                .object([("view", .string(step.view.rawValue)), ("step", "enter"), ("point", self.point(point))])
            case .result(let result, let outcome):
                .object([
                    ("view", .string(step.view.rawValue)), ("step", "result"), ("result", id(result)), ("reason", .string(outcome.description)),
                ])
            }
        }
        batch.add(
            topic: .hitTests, views: hit.viewPath, droppable: true,
            members: [
                ("type", "hit_test"), ("time", .double(hit.timestamp.seconds)), ("touch", .int(Int64(clamping: hit.touch))),
                ("window", id(hit.window)), ("point", point(hit.pointInWindow)), ("view", id(hit.view)), ("steps", .array(steps)),
            ])
    }

    /// The event (`UIEvent`: its type, time and `allTouches`) and every responder call it made, in
    /// order (topic `calls`).
    static func addCalls(of report: DispatchReport, to batch: inout MessageBatch) {
        guard !report.calls.isEmpty else { return }
        let allTouches: [JSONValue] = report.event.allTouches.map { touch in
            .object([
                ("touch", .int(Int64(clamping: touch.id))), ("phase", .string(touch.phase.rawValue)), ("view", id(touch.view)),
                ("window", id(touch.window)),
            ])
        }
        batch.add(
            topic: .calls, views: [], droppable: true,
            members: [
                ("type", "event"), ("time", .double(report.event.timestamp.seconds)), ("event", .string(report.event.type.rawValue)),
                ("all_touches", .array(allTouches)),
            ])
        for call in report.calls {
            var members: [(String, JSONValue)] = [
                ("type", "call"), ("time", .double(report.event.timestamp.seconds)), ("responder", .string(call.responder.rawValue)),
                ("method", .string(call.trigger.methodName)), ("touches", .array(call.touches.map { .int(Int64(clamping: $0)) })),
            ]
            if !call.detail.isEmpty { members.append(("detail", .array(call.detail.map { .string($0) }))) }
            members.append(("passed_on", .bool(call.passedOn)))
            batch.add(topic: .calls, views: [call.responder], droppable: true, members: members)
        }
    }
}
