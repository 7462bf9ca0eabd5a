/// The fuzzing targets: each takes any bytes, runs them through one part of touchd as it runs in
/// production, and checks what must hold whatever the bytes were (beyond not crashing).
///
/// `touchd-fuzz` exposes them to libFuzzer (`scripts/fuzz.sh`); the test suite replays every
/// committed corpus and regression file through them (`Fuzz/corpus`, `Fuzz/regressions`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Request lines written to a live daemon's socket, in uneven chunks, by clients of both roles
    /// (``RequestFuzzing``).
    case request
    /// A layout file, loaded, validated and built into an application (``LayoutFuzzing``).
    case layout
    /// An evemu recording (``RecordingFuzzing``).
    case evemu
    /// A libinput-record YAML recording.
    case libinputRecord = "libinput-record"
    /// An Android `getevent` trace.
    case getevent
    /// A raw evdev event stream fed to the frame assembler of a device the bytes describe
    /// (``FrameFuzzing``).
    case frames
    /// The WebSocket listener's HTTP head and frame parsers (``WebSocketFuzzing``).
    case websocket

    /// Runs `bytes` through the target.
    /// - Throws: ``FuzzViolation`` when something that must hold did not.
    public func run(_ bytes: [UInt8]) throws(FuzzViolation) {
        switch self {
        case .request: try RequestFuzzing.run(bytes)
        case .layout: try LayoutFuzzing.run(bytes)
        case .evemu: try RecordingFuzzing.run(bytes, format: .evemu)
        case .libinputRecord: try RecordingFuzzing.run(bytes, format: .libinputRecord)
        case .getevent: try RecordingFuzzing.run(bytes, format: .getevent)
        case .frames: try FrameFuzzing.run(bytes)
        case .websocket: try WebSocketFuzzing.run(bytes)
        }
    }
}

/// Something that must hold for any input did not: the fuzzer reports the input as a crash.
public struct FuzzViolation: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Throws a ``FuzzViolation`` saying `message` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzViolation) {
    if !condition { throw FuzzViolation(message()) }
}
