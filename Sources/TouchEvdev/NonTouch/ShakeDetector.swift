/// When a shake counts, in g (9.81 m/s²) and seconds of the kernel's clock.
public struct ShakeSettings: Hashable, Sendable {
    /// How far the acceleration's magnitude must stray from 1 g (gravity alone) to count as shaking.
    public var thresholdG: Double
    /// How long the shaking must last for `motionEnded`; a shorter one gives `motionCancelled`.
    public var minimumDuration: Double
    /// How long the device must stay calm (every sample under the threshold) for the shake to end.
    public var settle: Double

    public init(thresholdG: Double = 0.8, minimumDuration: Double = 0.3, settle: Double = 0.25) {
        self.thresholdG = thresholdG
        self.minimumDuration = minimumDuration
        self.settle = settle
    }
}

/// What the shake detector decided at one sample.
public enum ShakeTransition: Hashable, Sendable {
    case began(EventTime)
    case ended(EventTime)
    case cancelled(EventTime)
}

/// Finds shakes in accelerometer samples. Pure: time is the samples' kernel timestamps.
///
/// A shake ends ``ShakeSettings/settle`` after its last strong sample. The kernel passes on only
/// values that changed, so a device at rest may go silent: the end is then decided by
/// ``advance(to:)`` at ``deadline`` (the daemon arms a timer for it), or by the next sample after
/// it, whichever comes first. Either way the end's time is the deadline.
public struct ShakeDetector: Sendable {
    /// The detector's state.
    public enum State: Hashable, Sendable {
        case calm
        /// Shaking since `began`; the last sample over the threshold was at `lastStrong`.
        case shaking(began: EventTime, lastStrong: EventTime)
    }

    public let settings: ShakeSettings
    public private(set) var state: State = .calm

    public init(settings: ShakeSettings) { self.settings = settings }

    /// When the shake in progress ends if no strong sample comes first; `nil` when calm.
    public var deadline: EventTime? {
        guard case .shaking(_, let lastStrong) = state else { return nil }
        return EventTime(microseconds: lastStrong.microseconds + Int64((settings.settle * 1e6).rounded()))
    }

    /// Feeds one sample (each axis in g); returns what it decides, in order: the end of a shake whose
    /// deadline passed before it, and the beginning of a new one.
    public mutating func sample(x: Double, y: Double, z: Double, at time: EventTime) -> [ShakeTransition] {
        var out: [ShakeTransition] = []
        if let end = advance(to: time) { out.append(end) }
        let magnitude = (x * x + y * y + z * z).squareRoot()
        guard abs(magnitude - 1) >= settings.thresholdG else { return out }
        switch state {
        case .calm:
            state = .shaking(began: time, lastStrong: time)
            out.append(.began(time))
        case .shaking(let began, _):
            state = .shaking(began: began, lastStrong: time)
        }
        return out
    }

    /// Ends the shake in progress when `time` has reached its ``deadline``: `ended` when it lasted
    /// ``ShakeSettings/minimumDuration``, else `cancelled`, at the deadline.
    public mutating func advance(to time: EventTime) -> ShakeTransition? {
        guard case .shaking(let began, let lastStrong) = state, let deadline, time >= deadline else { return nil }
        state = .calm
        let lasted = Double(lastStrong.microseconds - began.microseconds) / 1e6
        return lasted >= settings.minimumDuration ? .ended(deadline) : .cancelled(deadline)
    }

    /// Cancels a shake in progress (the device went away).
    public mutating func finish(at time: EventTime) -> ShakeTransition? {
        guard case .shaking = state else { return nil }
        state = .calm
        return .cancelled(time)
    }
}

/// Decodes an accelerometer's events (`ABS_X`, `ABS_Y`, `ABS_Z` between `SYN_REPORT`s) into
/// samples in g and runs them through a ``ShakeDetector``. Pure.
///
/// The axes' resolution is the kernel's units per g; an axis that declares none is taken to span
/// ±2 g over its range.
public struct AccelerometerDecoder: Sendable {
    public private(set) var detector: ShakeDetector
    private let unitsPerG: [Double]
    private var raw: [Int32] = [0, 0, 0]
    private var changed = false
    private var dropping = false

    /// `nil` for a device without `ABS_X` and `ABS_Y`.
    public init?(description: DeviceDescription, settings: ShakeSettings) {
        let codes = [AbsCode.x, AbsCode.y, AbsCode.z]
        guard description.absInfo[AbsCode.x] != nil, description.absInfo[AbsCode.y] != nil else { return nil }
        unitsPerG = codes.map { code in
            guard let info = description.absInfo[code] else { return 1 }
            if info.resolution > 0 { return Double(info.resolution) }
            let span = Double(info.maximum) - Double(info.minimum)
            return span > 0 ? span / 4 : 1
        }
        for (i, code) in codes.enumerated() { raw[i] = description.absInfo[code]?.value ?? 0 }
        detector = ShakeDetector(settings: settings)
    }

    /// The last sample, in g.
    public var acceleration: (x: Double, y: Double, z: Double) {
        (Double(raw[0]) / unitsPerG[0], Double(raw[1]) / unitsPerG[1], Double(raw[2]) / unitsPerG[2])
    }

    /// Feeds one event; at a `SYN_REPORT` with new values, returns the shake transitions it decides.
    public mutating func feed(_ event: InputEvent) -> [ShakeTransition] {
        switch (event.type, event.code) {
        case (EventType.syn, SynCode.dropped):
            dropping = true
            return []
        case (EventType.syn, SynCode.report):
            if dropping {
                dropping = false
                return []
            }
            guard changed else { return [] }
            changed = false
            let a = acceleration
            return detector.sample(x: a.x, y: a.y, z: a.z, at: event.time)
        case (EventType.abs, AbsCode.x), (EventType.abs, AbsCode.y), (EventType.abs, AbsCode.z):
            raw[Int(event.code)] = event.value
            changed = true
            return []
        default:
            return []
        }
    }

    /// When the shake in progress ends without another strong sample (see ``ShakeDetector/deadline``).
    public var deadline: EventTime? { detector.deadline }

    /// Ends the shake in progress once `time` reaches its deadline (the device went quiet).
    public mutating func advance(to time: EventTime) -> ShakeTransition? { detector.advance(to: time) }

    /// Takes the kernel's current values after lost events (libevdev's sync delta).
    public mutating func resync(with delta: [InputEvent]) {
        dropping = false
        for event in delta where event.type == EventType.abs && event.code <= AbsCode.z { raw[Int(event.code)] = event.value }
    }

    /// Cancels a shake in progress (the device went away).
    public mutating func finish(at time: EventTime) -> ShakeTransition? { detector.finish(at: time) }
}
