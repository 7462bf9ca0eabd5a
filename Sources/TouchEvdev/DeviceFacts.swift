/// Everything touchd knows of an input device, gathered once: what the device says it is
/// (libevdev's description, or a recording's), where it is and what udev says of it, what it was
/// classified as, and the identity that survives replug.
///
/// The one description of a device: the device shell makes it when it opens a node (from udev's
/// enumeration or a hotplug event, and libevdev), a replay when it loads a recording; matching to
/// the layout's `[[device]]` entries, the installer's sessions, `touchd devices` and the
/// protocol's device listings all read it. A device is classified (``DeviceClassification``) when
/// its facts are made, and never again.
public struct DeviceFacts: Hashable, Sendable {
    /// Where a device's events come from.
    public enum Origin: Hashable, Sendable {
        /// An event node, opened: udev's view of it, and the kernel's `phys` (nil when none).
        case node(UdevInputDevice, physicalPath: String?)
        /// A recording played back, with the udev properties it kept (libinput-record's `udev:`
        /// section; none for other formats).
        case recording(udevProperties: [String: String])
    }

    /// What the device says it is: its name, ids, properties, codes and axes.
    public let description: DeviceDescription
    /// Where its events come from.
    public let origin: Origin
    /// What it is, and why: classified once, from the description and udev's properties.
    public let classification: DeviceClassification
    /// The identity that survives replug (``StableIdentity``) for a node; `replay:NAME` for a
    /// recording. Two identical devices present at once share it (the daemon numbers the second).
    public let identity: String

    /// Gathers what is known of a device, classifying it.
    ///
    /// - Parameters:
    ///   - description: The device as libevdev (or a recording) describes it.
    ///   - origin: Its event node with udev's view of it, or the recording it comes from.
    public init(description: DeviceDescription, origin: Origin) {
        self.description = description
        self.origin = origin
        switch origin {
        case .node(let udev, let physicalPath):
            classification = DeviceClassification(description: description, udevProperties: udev.properties)
            identity = StableIdentity.of(
                name: description.name, vendor: description.vendor, product: description.product, properties: udev.properties,
                physicalPath: physicalPath)
        case .recording(let udevProperties):
            classification = DeviceClassification(description: description, udevProperties: udevProperties)
            identity = "replay:" + description.name
        }
    }

    /// A recording's device, as the recording describes it.
    public init(recording: Recording) {
        self.init(description: recording.description, origin: .recording(udevProperties: recording.udevProperties))
    }

    /// The kernel's device name.
    public var name: String { description.name }
    /// The vendor id.
    public var vendor: UInt16 { description.vendor }
    /// The product id.
    public var product: UInt16 { description.product }
    /// What the device is (``classification``'s kind).
    public var kind: DeviceKind { classification.kind }

    /// udev's view of the node (nil for a recording).
    public var udev: UdevInputDevice? {
        guard case .node(let udev, _) = origin else { return nil }
        return udev
    }

    /// The event node (nil for a recording).
    public var devnode: String? { udev?.devnode }

    /// The kernel's `phys` (nil for a recording, and for a node without one).
    public var physicalPath: String? {
        guard case .node(_, let physicalPath) = origin else { return nil }
        return physicalPath
    }

    /// Whether the device is a recording played back.
    public var isRecording: Bool { udev == nil }

    /// udev's properties: a node's, or those a recording kept; empty without udevd.
    public var udevProperties: [String: String] {
        switch origin {
        case .node(let udev, _): udev.properties
        case .recording(let udevProperties): udevProperties
        }
    }

    /// udev's `ID_PATH`, when known.
    public var idPath: String? { udevProperties["ID_PATH"] }
    /// udev's `ID_SERIAL`, when known.
    public var idSerial: String? { udevProperties["ID_SERIAL"] }
}
