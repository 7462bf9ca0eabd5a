import ArgumentParser
import TouchCore
import TouchProtocol
import TouchSystem

/// `touchctl calibrate`: a calibration session in the terminal, target by target.
struct Calibrate: RequestCommand {
    static let configuration = CommandConfiguration(
        abstract: "Calibrate a touch device of the running daemon: touch each target in turn (needs the control role).",
        discussion: """
            While the session runs, the device's touches reach no view. This tells you which target \
            to touch (in window points, and in millimetres from the window's top left corner); the \
            kiosk app, or examples/calibrate.py on the kiosk's screen, draws them. Each touch is \
            taken for the target asked for. At the end touchd fits the matrix, applies it at once, \
            keeps it in the file the device's [[device]] entry names as calibration_file, and this \
            prints how far each touch lands from its target. Ctrl-C cancels: nothing changes.
            """)
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Option(name: .long, help: "The device's identity (default: the daemon's only touch device).") var device: String?
    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp("The targets in window points (default: five, as ts_calibrate's).", valueName: "X,Y"))
    var targets: [String] = []
    @Flag(name: .long, help: "Print the replies as touchd sent them.") var json = false

    func request() throws -> ClientRequest {
        let points = try targets.map { text in
            let parts = text.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2 else { throw ValidationError("--targets \"\(text)\": expected X,Y") }
            return Point(x: parts[0], y: parts[1])
        }
        return try checked(.calibrate(device: device, targets: points))
    }

    func run() throws {
        try TouchControl.run {
            let c = try connection.connect(root)
            var pending: [JSONValue] = []
            let started = try c.request(try request()) { message, _ in pending.append(message) }
            if json { print(started.jsonText) }
            for line in Self.introduction(started) { print(line) }
            let density = started["points_per_mm"]?.numberValue ?? 1
            for (index, target) in (started["targets"]?.arrayValue ?? []).enumerated() {
                let (x, y) = (target["x"]?.numberValue ?? 0, target["y"]?.numberValue ?? 0)
                print("touch target \(index) at (\(MonitorFormat.num(x)), \(MonitorFormat.num(y))): "
                    + "\(MonitorFormat.num(x / density)) mm from the window's left edge, \(MonitorFormat.num(y / density)) mm from its top")
                StandardOutput.flush()
                let sample = try Self.nextSample(c, pending: &pending)
                _ = try c.request(.calibrationPoint(sample: sample, target: index)) { message, _ in pending.append(message) }
            }
            // The device may have gone away after the last touch: say so rather than ask to finish.
            if let ended = pending.first(where: { $0["type"]?.stringValue == "calibration_ended" }) {
                throw ConnectionError("the calibration ended: \(MonitorFormat.text(ended["reason"]))")
            }
            let finished = try c.request(.finishCalibration)
            if json { print(finished.jsonText) }
            for line in Self.outcome(finished) { print(line) }
        }
    }

    /// The next touch's sample number, telling each touch-down as it comes.
    static func nextSample(_ c: Connection, pending: inout [JSONValue]) throws -> JSONValue {
        while true {
            let message: JSONValue
            if !pending.isEmpty {
                message = pending.removeFirst()
            } else {
                guard let (received, _) = try c.receive() else { throw ConnectionError("touchd closed the connection") }
                message = received
            }
            switch message["type"]?.stringValue {
            case "calibration_touch":
                print("  touched at (\(MonitorFormat.text(message["x"])), \(MonitorFormat.text(message["y"]))) in device units")
                StandardOutput.flush()
            case "calibration_sample":
                if let sample = message["sample"] { return sample }
            case "calibration_ended":
                throw ConnectionError("the calibration ended: \(MonitorFormat.text(message["reason"]))")
            default: break
            }
        }
    }

    static func introduction(_ started: JSONValue) -> [String] {
        let region = (started["region"]?.arrayValue ?? []).compactMap(\.numberValue).map(MonitorFormat.num).joined(separator: ", ")
        var lines = [
            "calibrating \(MonitorFormat.text(started["device"])) (window \(MonitorFormat.text(started["window"])), region [\(region)], "
                + "\(MonitorFormat.text(started["points_per_mm"])) points per mm): its touches reach no view until the end"
        ]
        if let file = started["calibration_file"]?.shownValue {
            lines.append("the result will be kept in \(file)")
        } else {
            lines.append("note: the device's [[device]] entry names no calibration_file: the result lasts until the next reload or restart")
        }
        return lines
    }

    static func outcome(_ finished: JSONValue) -> [String] {
        var lines = (finished["points"]?.arrayValue ?? []).map { point in
            "target \(MonitorFormat.text(point["target"])) at \(MonitorFormat.point(point)): lands at \(MonitorFormat.point(point["landed"])), "
                + "\(MonitorFormat.num(point["residual_mm"]?.numberValue ?? 0)) mm away"
        }
        lines.append(
            "worst residual \(MonitorFormat.num(finished["worst_residual_mm"]?.numberValue ?? 0)) mm, "
                + "mean \(MonitorFormat.num(finished["mean_residual_mm"]?.numberValue ?? 0)) mm; applied")
        if finished["kept"] == true {
            lines.append("kept in \(MonitorFormat.text(finished["calibration_file"]))")
        } else {
            lines.append("not kept: \(MonitorFormat.text(finished["not_kept_because"]))")
        }
        return lines
    }
}
