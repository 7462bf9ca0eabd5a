import TouchCore
import TouchEvdev
import TouchLayout

/// Why a device cannot be set up for input.
public struct DevicePipelineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var device: String
    public var problem: String

    public init(device: String, problem: String) {
        self.device = device
        self.problem = problem
    }

    public var description: String { "device \(device): \(problem)" }
}

/// One device's path from kernel events to the application's input frames:
/// ``FrameAssembler`` (slots, protocols, SYN_DROPPED) → ``DeviceMapping`` (axes, calibration,
/// rotation, region) → ``InputFrame``. Live devices and recordings go through exactly this code.
public struct DeviceInputPipeline: Sendable {
    public let deviceID: String
    public let window: ResponderID
    public private(set) var assembler: FrameAssembler
    public let mapping: DeviceMapping
    /// Contacts down now (by id), and those down when the layout was replaced: the latter were
    /// cancelled with the old layout, so the rest of their strokes is not passed on (as UIKit never
    /// revives a cancelled touch); each is forgotten when its finger lifts.
    private var liveContacts: Set<UInt64> = []
    private var contactsFromOldLayout: Set<UInt64> = []

    /// Sets a device up from its description and its `[[device]]` entry.
    ///
    /// - Parameters:
    ///   - layoutDirectory: where a relative `pointercal` path is resolved.
    /// - Throws: ``DevicePipelineError`` when the window is missing, the device has no position
    ///   axes, or a calibration cannot be read.
    public init(
        deviceID: String, description: DeviceDescription, udevProperties: [String: String] = [:], spec: DeviceSpec,
        tree: ViewTree
    ) throws(DevicePipelineError) {
        let window = ResponderID(spec.window)
        guard let windowProps = tree.windowProperties(of: window) else {
            throw DevicePipelineError(device: deviceID, problem: "its layout entry names window \"\(spec.window)\", which the layout does not have")
        }
        let palm = PalmThresholds(pressure: spec.palmPressure.map { Int32(clamping: $0) }, touchMajor: spec.palmTouchMajor.map { Int32(clamping: $0) })
        let assembler = FrameAssembler(description: description, udevProperties: udevProperties, palmThresholds: palm)
        let capabilities = assembler.capabilities
        guard capabilities.xAxis != nil, capabilities.yAxis != nil else {
            throw DevicePipelineError(device: deviceID, problem: "it has no absolute position axes (ABS_X/ABS_Y or ABS_MT_POSITION_X/Y)")
        }
        for (code, axis) in [(capabilities.positionXCode, capabilities.xAxis), (capabilities.positionYCode, capabilities.yAxis)] {
            guard let code, let axis, axis.minimum >= axis.maximum else { continue }
            let name = EventCodes.codeName(type: EventType.abs, code: code) ?? "ABS 0x\(String(code, radix: 16))"
            throw DevicePipelineError(
                device: deviceID,
                problem: "its axis \(name) has minimum \(axis.minimum) and maximum \(axis.maximum): a position axis needs minimum < maximum to be mapped")
        }
        var calibration = CalibrationMatrix.identity
        if let values = spec.calibration, values.count == 6 {
            calibration = CalibrationMatrix(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
        } else if let path = spec.pointercal {
            guard let pointercal = spec.pointercalContents else {
                throw DevicePipelineError(device: deviceID, problem: "pointercal \(path) was not read with the layout")
            }
            do {
                let region = spec.region
                calibration = try pointercal.normalisedMatrix(
                    xAxis: capabilities.xAxis!, yAxis: capabilities.yAxis!,
                    screenWidth: Int(region?.width ?? windowProps.size.width), screenHeight: Int(region?.height ?? windowProps.size.height))
            } catch {
                throw DevicePipelineError(device: deviceID, problem: "pointercal \(path): \(error)")
            }
        } else if spec.usesUdevCalibration {
            do {
                if let matrix = try CalibrationMatrix.fromUdev(udevProperties) { calibration = matrix }
            } catch {
                throw DevicePipelineError(device: deviceID, problem: "\(error)")
            }
        }
        let rotation = TouchEvdev.Rotation(rawValue: spec.rotation.rawValue) ?? .none
        let transform = MappingTransform(
            calibration: calibration, rotation: rotation, swapsAxes: spec.swapAxes, invertsX: spec.invertX, invertsY: spec.invertY)
        let region = spec.region.map { WindowRect(x: $0.minX, y: $0.minY, width: $0.width, height: $0.height) }
        let target = MappingTarget(
            windowWidth: windowProps.size.width, windowHeight: windowProps.size.height, region: region,
            pointsPerMillimetre: windowProps.pointsPerMillimetre)
        self.deviceID = deviceID
        self.window = window
        self.assembler = assembler
        self.mapping = DeviceMapping(capabilities: capabilities, transform: transform, target: target)
    }

    /// The same device set up for a new layout entry and tree (after a reload): the assembler
    /// keeps its state (fingers down stay tracked; the new entry's palm thresholds apply), the
    /// mapping is rebuilt, and the contacts down now are left out until they lift (their touches
    /// were cancelled with the old layout).
    ///
    /// - Throws: ``DevicePipelineError`` as ``init(deviceID:description:udevProperties:spec:tree:)``.
    public func remapped(
        description: DeviceDescription, udevProperties: [String: String] = [:], spec: DeviceSpec, tree: ViewTree
    ) throws(DevicePipelineError) -> DeviceInputPipeline {
        var fresh = try DeviceInputPipeline(
            deviceID: deviceID, description: description, udevProperties: udevProperties, spec: spec, tree: tree)
        let palm = fresh.assembler.palmThresholds
        fresh.assembler = assembler
        fresh.assembler.palmThresholds = palm
        fresh.contactsFromOldLayout = contactsFromOldLayout.union(liveContacts)
        return fresh
    }

    /// Feeds one kernel event; returns a frame at each `SYN_REPORT` that changed something.
    public mutating func feed(_ event: InputEvent) -> InputFrame? {
        assembler.feed(event).flatMap { convert($0) }
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

    /// Maps a frame's contacts into the window; nil when every contact in it belongs to a stroke
    /// that began under the previous layout.
    mutating func convert(_ frame: ContactFrame) -> InputFrame? {
        var kept = frame.contacts
        for contact in frame.contacts {
            switch contact.phase {
            case .began: liveContacts.insert(contact.id)
            case .ended, .cancelled: liveContacts.remove(contact.id)
            case .moved, .stationary: break
            }
        }
        if !contactsFromOldLayout.isEmpty {
            kept = frame.contacts.filter { !contactsFromOldLayout.contains($0.id) }
            for contact in frame.contacts where contact.phase == .ended || contact.phase == .cancelled {
                contactsFromOldLayout.remove(contact.id)
            }
            if kept.isEmpty && !frame.contacts.isEmpty { return nil }
        }
        let contacts = kept.map { contact -> InputContact in
            let mapped = mapping.map(contact)
            return InputContact(
                id: mapped.id, phase: Self.phase(mapped.phase), location: Point(x: mapped.x, y: mapped.y),
                majorRadius: mapped.majorRadius, majorRadiusTolerance: mapped.majorRadiusTolerance, force: mapped.force,
                maximumPossibleForce: mapped.maximumPossibleForce)
        }
        return InputFrame(device: deviceID, window: window, timestamp: frame.time.seconds, contacts: contacts)
    }

    static func phase(_ phase: ContactPhase) -> TouchPhase {
        switch phase {
        case .began: .began
        case .moved: .moved
        case .stationary: .stationary
        case .ended: .ended
        case .cancelled: .cancelled
        }
    }

}

extension DeviceFacts {
    /// What matching needs to know, from a description, its capabilities and udev properties.
    /// Touch surfaces win over keys (a touchscreen with buttons is a touchscreen); an accelerometer
    /// is one whatever its axes look like.
    public init(description: DeviceDescription, udevProperties: [String: String], devnode: String?) {
        let capabilities = DeviceCapabilities(description: description, udevProperties: udevProperties)
        var kind: Kind =
            switch capabilities.kind {
            case .touchscreen, .tablet: .touchscreen
            case .touchpad: .touchpad
            case .other: .other
            }
        // An accelerometer has position-like axes; its property (or udev) says what it is first.
        switch AuxiliaryDeviceKind.classify(description: description, udevProperties: udevProperties) {
        case .accelerometer?: kind = .accelerometer
        case .keys? where kind == .other: kind = .keys
        default: break
        }
        self.init(
            name: description.name, vendor: description.vendor, product: description.product, kind: kind,
            idPath: udevProperties["ID_PATH"], idSerial: udevProperties["ID_SERIAL"], devnode: devnode)
    }
}
