/// Single-touch devices: one contact at `ABS_X`/`ABS_Y`, down while the device's
/// ``TouchSignal`` says so (`BTN_TOUCH`, else `BTN_LEFT`, else `ABS_PRESSURE` above its minimum).
///
/// Transitions of ``Life`` at each frame end (down = the touch signal is on):
///
///     up          down, finger  → down        began
///     up          down, palm    → suppressed  (never reported)
///     up          up            → up
///     down        down, finger  → down        moved or stationary
///     down        down, palm    → suppressed  cancelled
///     down        up            → up          ended (cancelled in a resync frame)
///     suppressed  down          → suppressed
///     suppressed  up            → up
///     down        cancel all    → suppressed  cancelled
struct SingleTouchTracker: ContactTracker {
    enum Life: Sendable {
        case up
        case down(id: UInt64, last: ContactValues)
        case suppressed
    }

    private let codes: ContactCodes
    private let pressureMinimum: Int32
    private var life: Life = .up

    init(description: DeviceDescription, capabilities: DeviceCapabilities) {
        codes = ContactCodes(capabilities)
        pressureMinimum = description.absInfo[AbsCode.pressure]?.minimum ?? 0
    }

    mutating func handle(_ event: InputEvent, shared: SharedState, output: inout FrameOutput) {
        // Everything single-touch devices report is device-wide: SharedState holds it.
    }

    mutating func endFrame(shared: SharedState, output: inout FrameOutput) {
        let isDown: Bool
        switch codes.touchSignal {
        case .touchKey: isDown = shared.touchKey
        case .leftButton: isDown = shared.leftButton
        case .pressure: isDown = shared.pressure > pressureMinimum
        case .none: isDown = false
        }
        let values = ContactValues(
            x: shared.x, y: shared.y, touchMajor: nil,
            pressure: codes.pressure == nil ? nil : shared.pressure, toolType: nil)
        switch life {
        case .up:
            guard isDown else { return }
            if output.palm.isPalm(values) {
                life = .suppressed
            } else {
                let id = output.newID()
                output.emit(id: id, phase: .began, values: values, slot: nil)
                life = .down(id: id, last: values)
            }
        case .down(let id, let last):
            if !isDown {
                output.emit(id: id, phase: output.liftPhase, values: values, slot: nil)
                life = .up
            } else if output.palm.isPalm(values) {
                output.emit(id: id, phase: .cancelled, values: values, slot: nil)
                life = .suppressed
            } else {
                output.emit(id: id, phase: values == last ? .stationary : .moved, values: values, slot: nil)
                life = .down(id: id, last: values)
            }
        case .suppressed:
            if !isDown { life = .up }
        }
    }

    mutating func cancelAll(output: inout FrameOutput) {
        switch life {
        case .up, .suppressed:
            break
        case .down(let id, let last):
            output.emit(id: id, phase: .cancelled, values: last, slot: nil)
            life = .suppressed
        }
    }
}
