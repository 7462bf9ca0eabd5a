import TouchCore

/// When a shake counts, in g (9.81 m/s²) and spans of the kernel's clock.
///
/// The detector is safe with any values: a threshold outside ``TouchCore/Limits/shakeThreshold``
/// or a duration outside ``TouchCore/Limits/duration`` (NaN, infinite, negative) is taken at the
/// nearest bound (NaN at the lower), as the layout checks them against those domains.
public struct ShakeSettings: Hashable, Sendable {
    /// How far the acceleration's magnitude must stray from 1 g (gravity alone) to count as shaking.
    public var thresholdG: Double
    /// How long the shaking must last for `motionEnded`; a shorter one gives `motionCancelled`.
    public var minimumDuration: TimeSpan
    /// How long the device must stay calm (every sample under the threshold) for the shake to end.
    public var settle: TimeSpan

    /// Settings; the defaults are touchd's.
    public init(thresholdG: Double = 0.8, minimumDuration: TimeSpan = 0.3, settle: TimeSpan = 0.25) {
        self.thresholdG = thresholdG
        self.minimumDuration = minimumDuration
        self.settle = settle
    }
}

/// What the shake detector decided at one sample.
public enum ShakeTransition: Hashable, Sendable {
    /// A shake began at this time (`motionBegan`).
    case began(EventTime)
    /// The shake lasted long enough and ended at this time (`motionEnded`).
    case ended(EventTime)
    /// The shake was too short, or the device went away, at this time (`motionCancelled`).
    case cancelled(EventTime)
}

/// The shake transitions one accelerometer frame decided.
public struct ShakeFrame: Hashable, Sendable {
    /// The frame's time (its `SYN_REPORT`'s, or the resync's).
    public var time: EventTime
    /// What was decided, in order (never empty).
    public var transitions: [ShakeTransition]

    /// A frame from its parts.
    public init(time: EventTime, transitions: [ShakeTransition]) {
        self.time = time
        self.transitions = transitions
    }
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
        /// No shake in progress.
        case calm
        /// Shaking since `began`; the last sample over the threshold was at `lastStrong`.
        case shaking(began: EventTime, lastStrong: EventTime)
    }

    /// The settings, as given.
    public let settings: ShakeSettings
    /// The detector's state.
    public private(set) var state: State = .calm
    private let threshold: Double
    private let minimumDuration: TimeSpan
    private let settle: TimeSpan

    /// A calm detector.
    public init(settings: ShakeSettings) {
        self.settings = settings
        threshold = Self.clamp(settings.thresholdG, to: Limits.shakeThreshold.range)
        minimumDuration = TimeSpan(seconds: Self.clamp(settings.minimumDuration.seconds, to: Limits.duration.range))
        settle = TimeSpan(seconds: Self.clamp(settings.settle.seconds, to: Limits.duration.range))
    }

    /// When the shake in progress ends if no strong sample comes first; `nil` when calm.
    public var deadline: EventTime? {
        guard case .shaking(_, let lastStrong) = state else { return nil }
        return lastStrong.advanced(by: settle)
    }

    /// Feeds one sample (each axis in g); returns what it decides, in order: the end of a shake whose
    /// deadline passed before it, and the beginning of a new one.
    public mutating func sample(x: Double, y: Double, z: Double, at time: EventTime) -> [ShakeTransition] {
        var out: [ShakeTransition] = []
        if let end = advance(to: time) { out.append(end) }
        let magnitude = (x * x + y * y + z * z).squareRoot()
        guard abs(magnitude - 1) >= threshold else { return out }
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
        return lastStrong.span(since: began) >= minimumDuration ? .ended(deadline) : .cancelled(deadline)
    }

    /// Cancels a shake in progress (the device went away).
    public mutating func finish(at time: EventTime) -> ShakeTransition? {
        guard case .shaking = state else { return nil }
        state = .calm
        return .cancelled(time)
    }

    private static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        guard !value.isNaN else { return range.lowerBound }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}

/// Decodes an accelerometer's events (`ABS_X`, `ABS_Y`, `ABS_Z` between `SYN_REPORT`s) into
/// samples in g and runs them through a ``ShakeDetector``. Pure.
///
/// The axes' resolution is the kernel's units per g; an axis that declares none is taken to span
/// ±2 g over its range. Any axis values are safe (the arithmetic is in `Double`). Lost events
/// follow libevdev's rules (``EventSync``): the incomplete frame is dropped, and the axes are
/// brought up to date from the kernel's state (libevdev's delta through ``resync(with:at:)``, or
/// the frame after the drop in a raw stream), which is then a sample like any other.
public struct AccelerometerDecoder: EventStreamDecoder, Sendable {
    /// The shake detector the samples go through.
    public private(set) var detector: ShakeDetector
    private let unitsPerG: [Double]
    private var raw: [Int32] = [0, 0, 0]
    private var changed = false
    private var sync = EventSync()
    private var log = AnomalyLog()

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
    public mutating func feed(_ event: InputEvent) -> ShakeFrame? {
        switch sync.step(event) {
        case .collect:
            apply(event)
            return nil
        case .settle:
            return sample(at: event.time)
        case .drop(let kind):
            changed = false
            log.record(DeviceAnomaly(time: event.time, kind: kind))
            return nil
        case .ignore:
            return nil
        }
    }

    /// When the shake in progress ends without another strong sample (see ``ShakeDetector/deadline``).
    public var deadline: EventTime? { detector.deadline }

    /// Ends the shake in progress once `time` reaches its deadline (the device went quiet).
    public mutating func advance(to time: EventTime) -> ShakeTransition? { detector.advance(to: time) }

    /// Takes the kernel's current values after lost events (libevdev's sync delta) as a sample.
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> ShakeFrame? {
        sync.resynchronised()
        changed = false
        for event in delta { apply(event) }
        return sample(at: time)
    }

    /// Cancels a shake in progress (the device went away).
    public mutating func finish(at time: EventTime) -> ShakeFrame? {
        sync.resynchronised()
        changed = false
        return detector.finish(at: time).map { ShakeFrame(time: time, transitions: [$0]) }
    }

    /// Returns and forgets the anomalies (lost events, overlong frames) since the last call.
    public mutating func takeAnomalies() -> [DeviceAnomaly] { log.take() }

    private mutating func apply(_ event: InputEvent) {
        guard event.type == EventType.abs, event.code <= AbsCode.z else { return }
        raw[Int(event.code)] = event.value
        changed = true
    }

    private mutating func sample(at time: EventTime) -> ShakeFrame? {
        guard changed else { return nil }
        changed = false
        let a = acceleration
        let transitions = detector.sample(x: a.x, y: a.y, z: a.z, at: time)
        return transitions.isEmpty ? nil : ShakeFrame(time: time, transitions: transitions)
    }
}
