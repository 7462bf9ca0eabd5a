/// What a remote-control event asks for. The counterpart of `UIEvent.EventSubtype`'s
/// `remoteControl*` cases, with the volume keys that kiosk remotes also have.
public enum RemoteControlSubtype: String, Hashable, Sendable, CaseIterable {
    case play
    case pause
    case stop
    case togglePlayPause = "toggle_play_pause"
    case nextTrack = "next_track"
    case previousTrack = "previous_track"
    case beginSeekingBackward = "begin_seeking_backward"
    case endSeekingBackward = "end_seeking_backward"
    case beginSeekingForward = "begin_seeking_forward"
    case endSeekingForward = "end_seeking_forward"
    case volumeUp = "volume_up"
    case volumeDown = "volume_down"
    case mute
}

/// A remote-control command from a media key or a remote's receiver.
public struct RemoteControlInput: Hashable, Sendable {
    /// The device's stable identity.
    public var device: String
    /// The window whose first responder gets the event; `nil` means the key window.
    public var window: ResponderID?
    /// When, on the input's timeline (from the kernel's event timestamp).
    public var timestamp: InputTime
    public var subtype: RemoteControlSubtype
    /// The key that sent it, e.g. `KEY_PLAYPAUSE`.
    public var keyName: String

    public init(device: String, window: ResponderID?, timestamp: InputTime, subtype: RemoteControlSubtype, keyName: String) {
        self.device = device
        self.window = window
        self.timestamp = timestamp
        self.subtype = subtype
        self.keyName = keyName
    }
}
