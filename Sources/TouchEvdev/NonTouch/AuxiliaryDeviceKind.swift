/// The input devices touchd reads besides touch surfaces.
public enum AuxiliaryDeviceKind: String, Hashable, Sendable, CaseIterable {
    /// Keyboards, media keys, remote-control receivers: keys become presses or remote-control
    /// commands.
    case keys
    /// An accelerometer (`INPUT_PROP_ACCELEROMETER`): its samples are watched for shakes.
    case accelerometer

    /// What a device that is not a touch surface is, or `nil` when touchd has no use for it.
    ///
    /// An accelerometer is one with `INPUT_PROP_ACCELEROMETER` or udev's
    /// `ID_INPUT_ACCELEROMETER=1`. A key device is one udev marks `ID_INPUT_KEY=1`, or, without
    /// udev, one with a key below `BTN_MISC` or from `KEY_OK` on (udev's own test; mice and
    /// touch panels, whose keys are all buttons, are not key devices).
    public static func classify(description: DeviceDescription, udevProperties: [String: String] = [:]) -> AuxiliaryDeviceKind? {
        if description.properties.contains(InputProperty.accelerometer) || udevProperties["ID_INPUT_ACCELEROMETER"] == "1" {
            return .accelerometer
        }
        if udevProperties["ID_INPUT_KEY"] == "1" { return .keys }
        let keys = description.codes[EventType.key] ?? []
        if keys.contains(where: { ($0 >= 1 && $0 < KeyCode.btnMisc) || $0 >= KeyCode.keyOK }) { return .keys }
        return nil
    }
}
