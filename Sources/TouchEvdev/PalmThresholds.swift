/// Limits above which a contact is taken for a palm and cancelled, like libinput's per-device palm
/// pressure and size thresholds. A limit is exceeded when the value is strictly greater.
///
/// A contact that exceeds a limit when it would begin never begins; one that exceeds it later is
/// cancelled (``TouchCore/TouchPhase/cancelled``) and stays silent until its finger lifts, even if the
/// value drops again. The same holds for `ABS_MT_TOOL_TYPE` = `MT_TOOL_PALM`, which needs no
/// threshold.
public struct PalmThresholds: Hashable, Sendable {
    /// Pressure, in the units of the contact's pressure axis (``DeviceContact/pressure``).
    public var pressure: Int32?
    /// Contact size, in the units of ``DeviceContact/touchMajor``.
    public var touchMajor: Int32?
    /// Whether a contact the device flags `MT_TOOL_PALM` is a palm (always, but for measuring).
    public var cancelsFlaggedPalms: Bool

    /// Thresholds; nil leaves that value unchecked.
    public init(pressure: Int32? = nil, touchMajor: Int32? = nil, cancelsFlaggedPalms: Bool = true) {
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.cancelsFlaggedPalms = cancelsFlaggedPalms
    }

    /// No thresholds: only `MT_TOOL_PALM` cancels.
    public static let none = PalmThresholds()

    /// Nothing cancels, not even `MT_TOOL_PALM`: for measuring palms (``ContactSizeSurvey``).
    public static let measuring = PalmThresholds(cancelsFlaggedPalms: false)

    /// Whether `values` describe a palm.
    func isPalm(_ values: ContactValues) -> Bool {
        if cancelsFlaggedPalms && values.toolType == MTToolType.palm { return true }
        if let limit = pressure, let value = values.pressure, value > limit { return true }
        if let limit = touchMajor, let value = values.touchMajor, value > limit { return true }
        return false
    }
}
