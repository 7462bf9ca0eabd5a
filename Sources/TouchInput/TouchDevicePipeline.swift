import TouchCore
import TouchEvdev
import TouchLayout

/// A touch device's path from kernel events to the application's input frames:
/// ``TouchEvdev/FrameAssembler`` (slots, protocols, SYN_DROPPED) → ``TouchEvdev/DeviceMapping``
/// (axes, calibration, rotation, region) → `InputFrame`. Live devices and recordings go through
/// exactly this code.
///
/// Any device description and any layout entry and window are safe: a device whose axes cannot
/// be mapped, or whose calibration is out of its domain, is refused with a
/// ``DevicePipelineError`` saying why; everything else maps to finite points.
public struct TouchDevicePipeline: Sendable {
    /// The device's stable identity.
    public let deviceID: String
    /// The window its touches go to.
    public let window: ResponderID
    /// The frame assembler, with the device's contacts.
    public private(set) var assembler: FrameAssembler
    /// How contacts become window points.
    public private(set) var mapping: DeviceMapping
    /// Contacts down now (by id), and those down when the layout was replaced: the latter were
    /// cancelled with the old layout, so the rest of their strokes is not passed on (as UIKit never
    /// revives a cancelled touch); each is forgotten when its finger lifts.
    private var liveContacts: Set<UInt64> = []
    private var contactsFromOldLayout: Set<UInt64> = []
    /// Whether the device is held out of dispatch (a calibration session): its frames are kept raw,
    /// in device units, for ``takeHeldFrames()``, and none becomes an `InputFrame`.
    public private(set) var isHeld = false
    private var heldFrames: [ContactFrame] = []
    /// The contact list of the last frame handed out: the next frame is mapped into it once that
    /// frame is gone (dispatched, or merged into a waiting one), rather than into a list of its own.
    private var lastContacts: [InputContact] = []

    /// Sets a device up from its description and its `[[device]]` entry.
    ///
    /// - Throws: ``DevicePipelineError`` when the window is missing, the device has no position
    ///   axes or one whose range cannot be mapped, or a calibration cannot be used.
    public init(
        deviceID: String, description: DeviceDescription, udevProperties: [String: String] = [:], spec: DeviceSpec,
        tree: ViewTree
    ) throws(DevicePipelineError) {
        let window = ResponderID(spec.window)
        guard let windowProps = tree.windowProperties(of: window) else {
            throw DevicePipelineError(device: deviceID, problem: "its layout entry names window \"\(spec.window)\", which the layout does not have")
        }
        let palm = PalmThresholds(pressure: spec.palmPressure.map { Int32(clamping: $0) }, touchMajor: spec.palmTouchMajor.map { Int32(clamping: $0) })
        let assembler = FrameAssembler(description: description, palmThresholds: palm)
        let (xAxis, yAxis) = try Self.positionAxes(assembler.capabilities, deviceID: deviceID)
        let region = spec.region
        let screen = region?.size ?? windowProps.size
        let calibration = try Self.calibration(
            spec: spec, xAxis: xAxis, yAxis: yAxis, screen: screen, udevProperties: udevProperties, deviceID: deviceID)
        guard !calibration.flattensThePlane else {
            throw DevicePipelineError(
                device: deviceID,
                problem: "its calibration matrix (\(calibration)) maps the whole screen onto one line: expected a matrix that keeps "
                    + "the plane (a·e − b·d other than 0), as the identity 1 0 0 0 1 0 does")
        }
        let transform = MappingTransform(
            calibration: calibration, rotation: spec.rotation,
            swapsAxes: spec.swapAxes, invertsX: spec.invertX, invertsY: spec.invertY)
        let target = MappingTarget(windowSize: windowProps.size, region: region, pointsPerMillimetre: windowProps.pointsPerMillimetre)
        self.deviceID = deviceID
        self.window = window
        self.assembler = assembler
        self.mapping = DeviceMapping(capabilities: assembler.capabilities, transform: transform, target: target)
    }

    /// The position axes, each with minimum < maximum; any 32-bit range is mapped exactly.
    private static func positionAxes(_ capabilities: DeviceCapabilities, deviceID: String) throws(DevicePipelineError) -> (AbsInfo, AbsInfo) {
        guard let xAxis = capabilities.xAxis, let yAxis = capabilities.yAxis else {
            throw DevicePipelineError(device: deviceID, problem: "it has no absolute position axes (ABS_X/ABS_Y or ABS_MT_POSITION_X/Y)")
        }
        for (code, axis) in [(capabilities.positionXCode, xAxis), (capabilities.positionYCode, yAxis)] where axis.minimum >= axis.maximum {
            let name = code.flatMap { EventCodes.codeName(type: EventType.abs, code: $0) } ?? "position"
            throw DevicePipelineError(
                device: deviceID,
                problem: "its axis \(name) has minimum \(axis.minimum) and maximum \(axis.maximum): a position axis needs minimum < maximum to be mapped")
        }
        return (xAxis, yAxis)
    }

    /// The calibration the entry asks for: a calibration session's (its `calibration_file`), its
    /// `calibration` matrix, its `pointercal` file (read with the layout), or udev's
    /// `LIBINPUT_CALIBRATION_MATRIX`; each within ``TouchCore/Limits/calibrationCoefficient``.
    private static func calibration(
        spec: DeviceSpec, xAxis: AbsInfo, yAxis: AbsInfo, screen: Size, udevProperties: [String: String], deviceID: String
    ) throws(DevicePipelineError) -> CalibrationMatrix {
        let given = spec.calibration.flatMap { values in
            values.count == 6 ? CalibrationMatrix(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5]) : nil
        }
        if let matrix = spec.calibrationFileMatrix ?? given {
            if let index = matrix.firstCoefficientOutsideDomain {
                throw DevicePipelineError(
                    device: deviceID, problem: "its calibration's coefficient \(index) is not \(Limits.calibrationCoefficient)")
            }
            return matrix
        }
        if let path = spec.pointercal {
            guard let pointercal = spec.pointercalContents else {
                throw DevicePipelineError(device: deviceID, problem: "pointercal \(path) was not read with the layout")
            }
            do {
                return try pointercal.normalisedMatrix(xAxis: xAxis, yAxis: yAxis, screenSize: screen)
            } catch {
                throw DevicePipelineError(device: deviceID, problem: "pointercal \(path): \(error.problem)")
            }
        }
        guard spec.usesUdevCalibration else { return .identity }
        do {
            return try CalibrationMatrix.fromUdev(udevProperties) ?? .identity
        } catch {
            throw DevicePipelineError(device: deviceID, problem: "\(error)")
        }
    }

    /// The same device set up for a new layout entry and tree (after a reload): the assembler
    /// keeps its state (fingers down stay tracked; the new entry's palm thresholds apply), the
    /// mapping is rebuilt, and the contacts down now are left out until they lift (their touches
    /// were cancelled with the old layout).
    ///
    /// - Throws: ``DevicePipelineError`` as ``init(deviceID:description:udevProperties:spec:tree:)``.
    public func remapped(
        description: DeviceDescription, udevProperties: [String: String] = [:], spec: DeviceSpec, tree: ViewTree
    ) throws(DevicePipelineError) -> TouchDevicePipeline {
        var fresh = try TouchDevicePipeline(
            deviceID: deviceID, description: description, udevProperties: udevProperties, spec: spec, tree: tree)
        let palm = fresh.assembler.palmThresholds
        fresh.assembler = assembler
        fresh.assembler.palmThresholds = palm
        fresh.contactsFromOldLayout = contactsFromOldLayout.union(liveContacts)
        fresh.isHeld = isHeld
        fresh.heldFrames = heldFrames
        return fresh
    }

    /// The same device mapped with another calibration matrix (a calibration session's), from its
    /// next event on; contacts down now stay out until they lift (their touches are cancelled).
    public func recalibrated(_ matrix: CalibrationMatrix) -> TouchDevicePipeline {
        var copy = self
        var transform = mapping.transform
        transform.calibration = matrix
        copy.mapping = DeviceMapping(axes: mapping.axes, transform: transform, target: mapping.target)
        copy.contactsFromOldLayout.formUnion(liveContacts)
        return copy
    }

    /// Feeds one kernel event; returns a frame at each `SYN_REPORT` that changed something.
    public mutating func feed(_ event: InputEvent) -> InputFrame? {
        guard var frame = assembler.feed(event) else { return nil }
        defer { assembler.recycle(&frame) }
        return convert(frame)
    }

    /// Brings the contacts up to date after lost events (libevdev's sync delta, read after the
    /// `SYN_DROPPED` that was passed to ``feed(_:)``).
    public mutating func resync(with delta: [InputEvent], at time: EventTime) -> InputFrame? {
        assembler.resync(with: delta, at: time).flatMap { convert($0) }
    }

    /// Ends every live contact as cancelled (the device went away, or a recording ended).
    public mutating func finish(at time: EventTime) -> InputFrame? {
        assembler.finish(at: time).flatMap { convert($0) }
    }

    /// Anomalies the device produced since the last call (for the logs).
    public mutating func takeAnomalies() -> [DeviceAnomaly] { assembler.takeAnomalies() }

    /// Holds the device out of dispatch (or lets it go): while held, every frame is kept raw for
    /// ``takeHeldFrames()`` and nothing is mapped. Letting go leaves the contacts down now out until
    /// they lift, as a reload does: their touch-downs were never dispatched.
    public mutating func hold(_ held: Bool) {
        guard held != isHeld else { return }
        isHeld = held
        if !held {
            contactsFromOldLayout.formUnion(liveContacts)
            heldFrames = []
        }
    }

    /// The raw frames decoded while held, oldest first; the buffer is emptied.
    public mutating func takeHeldFrames() -> [ContactFrame] {
        defer { heldFrames = [] }
        return heldFrames
    }

    /// Maps a frame's contacts into the window; nil when every contact in it belongs to a stroke
    /// that began under the previous layout, or while the device is held.
    mutating func convert(_ frame: ContactFrame) -> InputFrame? {
        var kept = frame.contacts
        for contact in frame.contacts {
            switch contact.phase {
            case .began: liveContacts.insert(contact.id)
            case .ended, .cancelled: liveContacts.remove(contact.id)
            case .moved, .stationary: break
            }
        }
        if isHeld {
            heldFrames.append(frame)
            return nil
        }
        if !contactsFromOldLayout.isEmpty {
            kept = frame.contacts.filter { !contactsFromOldLayout.contains($0.id) }
            for contact in frame.contacts where contact.phase == .ended || contact.phase == .cancelled {
                contactsFromOldLayout.remove(contact.id)
            }
            if kept.isEmpty && !frame.contacts.isEmpty { return nil }
        }
        var contacts: [InputContact] = []
        swap(&contacts, &lastContacts)
        // In place when the last frame is gone; a list of its own when that frame is still held.
        contacts.removeAll(keepingCapacity: true)
        for contact in kept { contacts.append(mapping.map(contact)) }
        lastContacts = contacts
        return InputFrame(device: deviceID, window: window, timestamp: frame.time.inputTime, contacts: contacts)
    }
}
