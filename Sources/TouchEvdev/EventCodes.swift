/// Event types (`EV_*` in `linux/input-event-codes.h`).
public enum EventType {
    /// `EV_SYN`: frame markers (``SynCode``).
    public static let syn: UInt16 = 0x00
    /// `EV_KEY`: keys and buttons (``KeyCode``).
    public static let key: UInt16 = 0x01
    /// `EV_REL`: relative axes.
    public static let rel: UInt16 = 0x02
    /// `EV_ABS`: absolute axes (``AbsCode``).
    public static let abs: UInt16 = 0x03
    /// `EV_MSC`: miscellaneous (``MscCode``).
    public static let msc: UInt16 = 0x04
    /// `EV_SW`: switches.
    public static let sw: UInt16 = 0x05
    /// `EV_LED`: LEDs.
    public static let led: UInt16 = 0x11
    /// `EV_SND`: sounds.
    public static let snd: UInt16 = 0x12
    /// `EV_REP`: autorepeat settings.
    public static let rep: UInt16 = 0x14
    /// `EV_FF`: force feedback.
    public static let ff: UInt16 = 0x15
    /// `EV_MAX`: the largest event type.
    public static let maximum: UInt16 = 0x1f
}

/// `EV_SYN` codes.
public enum SynCode {
    /// `SYN_REPORT`: ends a frame; everything since the previous one happened at once.
    public static let report: UInt16 = 0
    /// `SYN_CONFIG`: unused by the kernel.
    public static let config: UInt16 = 1
    /// `SYN_MT_REPORT`: ends one contact's data in multi-touch protocol A.
    public static let mtReport: UInt16 = 2
    /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost.
    public static let dropped: UInt16 = 3
}

/// The `EV_KEY` codes touchd reads.
public enum KeyCode {
    /// `BTN_MISC`: the first button code; keys are below it (or from ``keyOK`` on).
    public static let btnMisc: UInt16 = 0x100
    /// `KEY_OK`: the first of the media and remote-control keys above the buttons.
    public static let keyOK: UInt16 = 0x160
    /// `BTN_LEFT`: also the touch signal of some single-touch screens (Posiflex).
    public static let btnLeft: UInt16 = 0x110
    /// `BTN_RIGHT`.
    public static let btnRight: UInt16 = 0x111
    /// `BTN_MIDDLE`.
    public static let btnMiddle: UInt16 = 0x112
    /// `BTN_TOOL_PEN`.
    public static let btnToolPen: UInt16 = 0x140
    /// `BTN_TOOL_RUBBER`.
    public static let btnToolRubber: UInt16 = 0x141
    /// `BTN_TOOL_FINGER`: one finger is on a touchpad.
    public static let btnToolFinger: UInt16 = 0x145
    /// `BTN_TOOL_QUINTTAP`: five fingers.
    public static let btnToolQuintTap: UInt16 = 0x148
    /// `BTN_TOUCH`: something touches the surface.
    public static let btnTouch: UInt16 = 0x14a
    /// `BTN_STYLUS`: the first stylus button.
    public static let btnStylus: UInt16 = 0x14b
    /// `BTN_TOOL_DOUBLETAP`: two fingers.
    public static let btnToolDoubleTap: UInt16 = 0x14d
    /// `BTN_TOOL_TRIPLETAP`: three fingers.
    public static let btnToolTripleTap: UInt16 = 0x14e
    /// `BTN_TOOL_QUADTAP`: four fingers.
    public static let btnToolQuadTap: UInt16 = 0x14f
}

/// The `EV_ABS` codes touchd reads.
public enum AbsCode {
    /// `ABS_Z`: an accelerometer's third axis.
    public static let z: UInt16 = 0x02
    /// `ABS_X`.
    public static let x: UInt16 = 0x00
    /// `ABS_Y`.
    public static let y: UInt16 = 0x01
    /// `ABS_PRESSURE`.
    public static let pressure: UInt16 = 0x18
    /// `ABS_TOOL_WIDTH`.
    public static let toolWidth: UInt16 = 0x1c
    /// `ABS_RESERVED` (`ABS_MT_SLOT` − 1): declared only by devices that declare every axis from
    /// `ABS_MISC` on, whose codes from `ABS_MT_SLOT` on are then no multi-touch axes.
    public static let reserved: UInt16 = 0x2e
    /// `ABS_MT_SLOT`: selects the slot the following `ABS_MT_*` events describe (protocol B).
    public static let mtSlot: UInt16 = 0x2f
    /// `ABS_MT_TOUCH_MAJOR`: the contact's major axis, in surface units.
    public static let mtTouchMajor: UInt16 = 0x30
    /// `ABS_MT_TOUCH_MINOR`.
    public static let mtTouchMinor: UInt16 = 0x31
    /// `ABS_MT_WIDTH_MAJOR`: the approaching tool's major axis.
    public static let mtWidthMajor: UInt16 = 0x32
    /// `ABS_MT_WIDTH_MINOR`.
    public static let mtWidthMinor: UInt16 = 0x33
    /// `ABS_MT_ORIENTATION`.
    public static let mtOrientation: UInt16 = 0x34
    /// `ABS_MT_POSITION_X`.
    public static let mtPositionX: UInt16 = 0x35
    /// `ABS_MT_POSITION_Y`.
    public static let mtPositionY: UInt16 = 0x36
    /// `ABS_MT_TOOL_TYPE`: one of ``MTToolType``.
    public static let mtToolType: UInt16 = 0x37
    /// `ABS_MT_BLOB_ID`.
    public static let mtBlobID: UInt16 = 0x38
    /// `ABS_MT_TRACKING_ID`: a contact's identity; -1 ends it (protocol B).
    public static let mtTrackingID: UInt16 = 0x39
    /// `ABS_MT_PRESSURE`.
    public static let mtPressure: UInt16 = 0x3a
    /// `ABS_MT_DISTANCE`: hover distance.
    public static let mtDistance: UInt16 = 0x3b
    /// `ABS_MT_TOOL_X`.
    public static let mtToolX: UInt16 = 0x3c
    /// `ABS_MT_TOOL_Y`.
    public static let mtToolY: UInt16 = 0x3d

    /// Every `ABS_MT_*` code: `ABS_MT_SLOT` (0x2f) to `ABS_MT_TOOL_Y` (0x3d).
    public static let multitouchRange: ClosedRange<UInt16> = 0x2f...0x3d
}

/// `EV_MSC` codes.
public enum MscCode {
    /// `MSC_SERIAL`.
    public static let serial: UInt16 = 0x00
    /// `MSC_SCAN`: the raw scan code of the key that follows.
    public static let scan: UInt16 = 0x04
    /// `MSC_TIMESTAMP`: the device's own microsecond clock.
    public static let timestamp: UInt16 = 0x05
}

/// Input properties (`INPUT_PROP_*`), the bits of `EVIOCGPROP` and of an evemu `P:` line.
public enum InputProperty {
    /// `INPUT_PROP_POINTER`: needs a pointer (touchpads).
    public static let pointer: UInt16 = 0x00
    /// `INPUT_PROP_DIRECT`: touches land where they are shown (touchscreens, pen displays).
    public static let direct: UInt16 = 0x01
    /// `INPUT_PROP_BUTTONPAD`: the whole pad is a button (clickpads).
    public static let buttonpad: UInt16 = 0x02
    /// `INPUT_PROP_SEMI_MT`: the slots carry the bounding box of the fingers, not the fingers.
    public static let semiMT: UInt16 = 0x03
    /// `INPUT_PROP_TOPBUTTONPAD`: soft buttons along the top edge.
    public static let topButtonpad: UInt16 = 0x04
    /// `INPUT_PROP_POINTING_STICK`.
    public static let pointingStick: UInt16 = 0x05
    /// `INPUT_PROP_ACCELEROMETER`.
    public static let accelerometer: UInt16 = 0x06
}

/// Values of `ABS_MT_TOOL_TYPE` (`MT_TOOL_*` in `linux/input.h`).
public enum MTToolType {
    /// `MT_TOOL_FINGER`.
    public static let finger: Int32 = 0x00
    /// `MT_TOOL_PEN`.
    public static let pen: Int32 = 0x01
    /// `MT_TOOL_PALM`: the firmware decided this contact is a palm; touchd cancels it.
    public static let palm: Int32 = 0x02
    /// `MT_TOOL_DIAL`.
    public static let dial: Int32 = 0x0a
}
