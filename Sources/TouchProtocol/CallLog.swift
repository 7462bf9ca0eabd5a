import TouchCore

/// A dispatched event's responder calls as the seed articles log them, one line each: the event,
/// then every call, recognizer change and action in the order they happened. What
/// `touchd replay --calls` prints, for reports recorded with responder calls.
///
///     1.000 event touches: touch 1 began on blue
///     1.000 blue touchesBegan [1] passes it on
///     1.000 gesture orange.tap (tap on orange) failed
///     1.000 action blue.touchesBegan from blue
public enum CallLog {
    /// The lines of `report`; none for a report without recorded calls.
    public static func lines(for report: DispatchReport) -> [String] {
        guard !report.log.isEmpty || !report.calls.isEmpty else { return [] }
        let time = formatTime(report.event.timestamp.seconds)
        var lines = ["\(time) event \(report.event.type.rawValue): \(touches(report.event.allTouches))"]
        for entry in report.log {
            switch entry {
            case .call(let call):
                let what = call.detail.isEmpty ? "[\(call.touches.map(String.init).joined(separator: ", "))]" : call.detail.joined(separator: ", ")
                lines.append("\(time) \(call.responder) \(call.trigger.methodName) \(what) \(call.passedOn ? "passes it on" : "keeps it")")
            case .gesture(let gesture):
                lines.append("\(time) gesture \(gesture.recognizer) (\(gesture.kind) on \(gesture.view)) \(gesture.state.rawValue)")
            case .action(let action):
                lines.append("\(time) action \(action.name) " + (action.responder.map { "from \($0)" } ?? "taken by no responder"))
            }
        }
        return lines
    }

    private static func touches(_ all: [Touch]) -> String {
        guard !all.isEmpty else { return "no touches" }
        return all.map { "touch \($0.id) \($0.phase.rawValue) on \($0.view?.rawValue ?? "no view")" }.joined(separator: ", ")
    }

    /// Seconds with three decimals, without Foundation.
    private static func formatTime(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return formatNumber(seconds) }
        let millis = (seconds * 1000).rounded()
        let whole = Int64(exactly: (millis / 1000).rounded(.towardZero)) ?? 0
        let rest = Int64(exactly: abs(millis.truncatingRemainder(dividingBy: 1000))) ?? 0
        let sign = seconds < 0 && whole == 0 ? "-" : ""
        let padded = String(rest)
        return "\(sign)\(whole).\(String(repeating: "0", count: 3 - padded.count))\(padded)"
    }
}
