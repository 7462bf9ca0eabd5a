import TouchCore
import TouchEvdev
import TouchLayout

/// A key device's path from kernel events to the application's events: ``TouchEvdev/KeyDecoder``
/// → presses, or remote-control commands for the media keys (``remoteControlKeys``). Pure.
///
/// A key whose lift was not seen (lost events, the device went away) ends its press as cancelled.
public struct KeyDevicePipeline: Sendable {
    /// The device's stable identity.
    public let deviceID: String
    /// The window whose first responder gets the events; `nil`: the key window.
    public let window: ResponderID?
    /// The decoder, with the keys down now.
    public private(set) var decoder = KeyDecoder()

    /// The media keys and what they command, by kernel key name. A key with two commands sends the
    /// first when it goes down and the second when it goes up (seeking); the others only on down.
    /// These keys give remote-control events and no presses.
    public static let remoteControlKeys: [String: (down: RemoteControlSubtype, up: RemoteControlSubtype?)] = [
        "KEY_PLAYPAUSE": (.togglePlayPause, nil), "KEY_PLAYCD": (.play, nil), "KEY_PLAY": (.play, nil),
        "KEY_PAUSECD": (.pause, nil), "KEY_STOPCD": (.stop, nil), "KEY_NEXTSONG": (.nextTrack, nil),
        "KEY_PREVIOUSSONG": (.previousTrack, nil), "KEY_FASTFORWARD": (.beginSeekingForward, .endSeekingForward),
        "KEY_REWIND": (.beginSeekingBackward, .endSeekingBackward), "KEY_VOLUMEUP": (.volumeUp, nil),
        "KEY_VOLUMEDOWN": (.volumeDown, nil), "KEY_MUTE": (.mute, nil),
    ]

    /// A pipeline for a device its layout entry `spec` took.
    public init(deviceID: String, spec: DeviceSpec) {
        self.deviceID = deviceID
        self.window = spec.window.isEmpty ? nil : ResponderID(spec.window)
    }

    /// Feeds one kernel event; at a `SYN_REPORT` returns its presses and commands, in key order.
    public mutating func feed(_ event: InputEvent) -> [QueuedEvent] {
        decoder.feed(event).map(events(for:)) ?? []
    }

    /// Brings the keys up to date after lost events (libevdev's sync delta).
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> [QueuedEvent] {
        decoder.resync(with: delta, at: time).map(events(for:)) ?? []
    }

    /// Cancels the keys still down (the device went away).
    public mutating func finish(at time: EventTime) -> [QueuedEvent] {
        decoder.finish(at: time).map(events(for:)) ?? []
    }

    /// Anomalies the device produced since the last call (for the logs).
    public mutating func takeAnomalies() -> [DeviceAnomaly] { decoder.takeAnomalies() }

    /// A key frame's presses and commands; a key up in a resync frame is a cancelled press.
    func events(for frame: KeyFrame) -> [QueuedEvent] {
        var out: [QueuedEvent] = []
        var changes: [KeyChange] = []
        let time = frame.time.inputTime
        let ending: PressPhase = frame.isResync ? .cancelled : .ended
        func flush() {
            guard !changes.isEmpty else { return }
            out.append(.presses(PressInput(device: deviceID, window: window, timestamp: time, changes: changes)))
            changes = []
        }
        for transition in frame.transitions {
            if let command = Self.remoteControlKeys[transition.name] {
                guard let subtype = transition.isDown ? command.down : command.up else { continue }
                flush()
                out.append(.remoteControl(RemoteControlInput(device: deviceID, window: window, timestamp: time, subtype: subtype, keyName: transition.name)))
            } else {
                changes.append(KeyChange(keyCode: transition.code, keyName: transition.name, phase: transition.isDown ? .began : ending))
            }
        }
        flush()
        return out
    }
}
