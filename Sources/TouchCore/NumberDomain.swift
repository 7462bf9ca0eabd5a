/// The values a number that enters touchd may take: a closed range of finite values and the unit
/// they are in.
///
/// Every number that comes from outside (a layout, a request, a recording, a device) is checked
/// once, where it enters, against one of these; past that check it is known to be finite and
/// within range, so no later arithmetic or conversion can overflow or trap. `touchd check` and the
/// running daemon use the same domains, so a layout that `check` accepts cannot crash the daemon.
/// `docs/limits.md` lists them all.
public struct NumberDomain: Hashable, Sendable, CustomStringConvertible {
    /// The smallest and largest accepted value.
    public let range: ClosedRange<Double>
    /// The unit, for messages: `"points"`, `"seconds"`; empty for plain numbers.
    public let unit: String
    /// Whether the lower bound itself is excluded (sizes that must be positive).
    public let excludesLowerBound: Bool
    /// Whether only whole numbers are accepted (counts, numbers that name something).
    public let isWholeNumbers: Bool

    public init(_ range: ClosedRange<Double>, unit: String = "", excludingLowerBound: Bool = false, wholeNumbers: Bool = false) {
        self.range = range
        self.unit = unit
        self.excludesLowerBound = excludingLowerBound
        self.isWholeNumbers = wholeNumbers
    }

    /// Whether `value` is inside the domain: an integer a file or the kernel gave, checked without
    /// a conversion that could trap (every domain's bounds are far inside 2^53, where a `Double`
    /// holds integers exactly).
    public func contains(_ value: some BinaryInteger) -> Bool {
        contains(Double(value))
    }

    /// Whether `value` is finite and inside the domain (and whole, for a domain of whole numbers).
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite, range.contains(value) else { return false }
        if isWholeNumbers && value != value.rounded() { return false }
        return !(excludesLowerBound && value == range.lowerBound)
    }

    /// What is expected, for an error message: `a finite number from 0 to 3600 (seconds)`,
    /// `a whole number from 1 to 2147483647`.
    public var description: String {
        let lower = excludesLowerBound ? "above \(formatNumber(range.lowerBound))" : "from \(formatNumber(range.lowerBound))"
        let unitText = unit.isEmpty ? "" : " (\(unit))"
        let kind = isWholeNumbers ? "a whole number" : "a finite number"
        return "\(kind) \(lower) to \(formatNumber(range.upperBound))\(unitText)"
    }
}

/// The domains and budgets of everything that enters touchd: one home for each bound.
public enum Limits {
    /// The largest magnitude of a coordinate or length in points. A million points is hundreds of
    /// metres at any real screen's density; past this, sums of offsets stay exact in a `Double`
    /// and any conversion to an integer cell or pixel stays far inside `Int`.
    public static let maximumPoints = 1_000_000.0
    /// The finest step of a number touchd writes with a fraction (JSON: at most 6 decimals). A
    /// location clamped inside a region's far edge stays this far inside, so that it is written
    /// inside too.
    public static let writtenCoordinateStep = 0.000_001

    /// A position in some view's or window's coordinates (points).
    public static let coordinate = NumberDomain(-maximumPoints...maximumPoints, unit: "points")
    /// A width, a height, an outset, a distance (points).
    public static let length = NumberDomain(0...maximumPoints, unit: "points")
    /// A window's width or height: positive (points).
    public static let windowLength = NumberDomain(0...maximumPoints, unit: "points", excludingLowerBound: true)
    /// A length in millimetres (movement thresholds, target sizes).
    public static let millimetres = NumberDomain(0...1_000_000, unit: "millimetres")
    /// A display density: points per millimetre (a 4 K phone is about 20; 1000 leaves room).
    public static let pointsPerMillimetre = NumberDomain(0...1_000, unit: "points per millimetre", excludingLowerBound: true)
    /// A duration a layout or request gives (timeouts, intervals): an hour at most.
    public static let duration = NumberDomain(0...3_600, unit: "seconds")
    /// An opacity.
    public static let alpha = NumberDomain(0...1)
    /// An angle in degrees.
    public static let degrees = NumberDomain(-360_000...360_000, unit: "degrees")
    /// A view transform's scale factor along one axis: positive (a mirror image is not offered) and
    /// within a million-fold range, so the transform always has an inverse.
    public static let transformScale = NumberDomain(0.001...1_000)
    /// Any other plain number a layout or request may carry (a slider's value and range, a scale):
    /// finite and of a magnitude no arithmetic here can overflow.
    public static let plainNumber = NumberDomain(-1e12...1e12)
    /// A picture's scale: output pixels per window point.
    public static let pictureScale = NumberDomain(0...1_000, unit: "pixels per point", excludingLowerBound: true)
    /// The side of a picture's heatmap cell (points).
    public static let heatmapCell = NumberDomain(0...maximumPoints, unit: "points", excludingLowerBound: true)

    /// The longest identifier (a view, window, controller, action, topic filter), in UTF-8 bytes.
    public static let maximumIdentifierBytes = 256
    /// The most views a tree may hold: the layout's and those added at run time together.
    public static let maximumViews = 10_000
    /// The deepest a view may be nested below its window.
    public static let maximumViewDepth = 100
    /// How far a view's composed transform (its own with those of the views above it, up to its
    /// window) may enlarge or shrink: at most this many times either way (``ComposedScale``). Each
    /// transform's scale is within ``transformScale``, but their product along a path of
    /// ``maximumViewDepth`` views is not: this bound keeps every point converted between a window
    /// and a view, and every corner of a drawn view, far inside a `Double`'s range.
    public static let maximumComposedScale = 1_000_000.0
    /// The most gesture recognizers a view's hit path (the view and the views above it) may carry:
    /// a touch landing on the view is offered to each of them, so this bounds what one touch-down
    /// asks of the recognizers.
    public static let maximumRecognizersOnHitPath = 64

    /// A subscription's number in an `unsubscribe` request (the daemon numbers them from 1).
    public static let subscriptionNumber = NumberDomain(1...2_147_483_647, wholeNumbers: true)
    /// The most arrays and objects a JSON text (a request, a message read by `touchctl`) may nest.
    public static let maximumJSONDepth = 128
    /// The most entries a request's list may have (`topics`, `views`, `actions` of `subscribe`).
    public static let maximumRequestListEntries = 64
    /// The longest string a request's `id` may be, in UTF-8 bytes (the reply carries it back).
    public static let maximumRequestIDBytes = 256
    /// The longest device identity a request may name (`record`, `calibrate`), in UTF-8 bytes: a
    /// port and ids, then a device name of at most 1024 bytes.
    public static let maximumDeviceIdentityBytes = 2_048

    /// The longest user or group name in those lists, in UTF-8 bytes (Linux allows 32).
    public static let maximumAccountNameBytes = 32

    /// The most clients connected to the socket at once; one more is told `goodbye` and closed.
    public static let maximumClients = 64
    /// Of ``maximumClients``, the places only a client with the control role may take: read-only
    /// clients, however many, never keep the kiosk app out.
    public static let reservedControlClients = 8
    /// The most connections one user (or, without credentials, all unknown peers together) may
    /// have open with the read-only role.
    public static let maximumReadOnlyClientsPerUser = 16
    /// The longest request line, in bytes without its newline; a longer one ends the connection.
    public static let maximumRequestLineBytes = 64 * 1024
    /// The most request lines served for one client in one turn of the event loop; the rest wait
    /// for its next turn, after the input that arrived meanwhile.
    public static let maximumRequestsPerTurn = 16
    /// The most request bytes read from one client in one turn of the event loop.
    public static let maximumRequestBytesPerTurn = 64 * 1024
    /// The most bytes waiting unwritten for one client before its droppable messages are dropped.
    public static let maximumQueuedBytesPerClient = 256 * 1024
    /// The longest reply, in bytes: a longer one is refused (`reply_too_large`).
    public static let maximumReplyBytes = 4 << 20
    /// The most bytes of `snapshot` and `views` replies waiting unwritten for all clients together:
    /// past it those requests are refused (`busy`) until clients have read theirs.
    public static let maximumHeavyReplyBytesInFlight = 16 << 20
    /// The most subscriptions one connection may hold at once.
    public static let maximumSubscriptionsPerClient = 16
    /// The most views one connection may have added with `add_view` and not yet removed.
    public static let maximumViewsPerClient = 1_000
    /// Seconds between two writes of the daemon's metrics file.
    public static let metricsInterval = NumberDomain(1...3_600, unit: "seconds")
    /// The metrics file's interval unless one is given.
    public static let defaultMetricsInterval = 15.0
    /// The most ids each list of a `reload` message holds (what the new layout added, removed and
    /// changed, and the run-time changes it dropped); the message counts those left out.
    public static let maximumReloadListEntries = 100
}

/// Whole-number conversions that cannot trap: `nil` (or a clamped value) where the standard
/// library's `Int(_:)` would stop the process on a value that is out of range, infinite or NaN.
extension Int {
    /// `value` rounded with `rule`, or `nil` when that is not finite or does not fit.
    public init?(rounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        self.init(exactly: value.rounded(rule))
    }

    /// `value` rounded with `rule` and clamped to `bounds` (NaN gives the lower bound).
    public init(rounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero, clampedTo bounds: ClosedRange<Int>) {
        let rounded = value.rounded(rule)
        if rounded.isNaN || rounded <= Double(bounds.lowerBound) {
            self = bounds.lowerBound
        } else if rounded >= Double(bounds.upperBound) {
            self = bounds.upperBound
        } else {
            self = Int(exactly: rounded) ?? bounds.lowerBound
        }
    }
}

// MARK: - The layout file

/// The domains and budgets that only a layout file uses (its numbers of other kinds use the
/// domains above).
extension Limits {
    /// A timeout or interval that must pass before something happens (the tap interval and the
    /// longest tap, a long press, a swipe's longest duration, a shake's): above 0, an hour at most.
    public static let positiveDuration = NumberDomain(0...3_600, unit: "seconds", excludingLowerBound: true)
    /// A movement threshold or distance in millimetres that must be positive.
    public static let positiveMillimetres = NumberDomain(0...1_000_000, unit: "millimetres", excludingLowerBound: true)
    /// An angle that must be positive (how far a rotation gesture must turn).
    public static let positiveDegrees = NumberDomain(0...360_000, unit: "degrees", excludingLowerBound: true)
    /// The factor by which the distance between two fingers must change for a pinch.
    public static let pinchScale = NumberDomain(1...1_000, excludingLowerBound: true)
    /// How many taps or fingers a gesture recognizer needs.
    public static let gestureCount = NumberDomain(1...10, wholeNumbers: true)
    /// The tap count a handler runs for.
    public static let tapCount = NumberDomain(1...1_000, unit: "taps", wholeNumbers: true)
    /// A window's display refresh rate (`refresh_hz`): 0 (every input frame) or up to 1,000 Hz,
    /// and not below ``minimumRefreshRate`` unless 0.
    public static let refreshRate = NumberDomain(0...1_000, unit: "Hz")
    /// The least refresh rate other than 0: moves wait at most a tenth of a second for their tick,
    /// so the samples one `touch` message carries stay few.
    public static let minimumRefreshRate = 10.0
    /// How many events the application's event queue holds.
    public static let queueCapacity = NumberDomain(16...1_048_576, unit: "events", wholeNumbers: true)
    /// A threshold in a device's own units (palm pressure and size), which the device pipeline
    /// keeps as a 32-bit integer.
    public static let deviceUnits = NumberDomain(0...2_147_483_647, unit: "device units", wholeNumbers: true)
    /// A floating-point number in a payload (data a layout sends with an action): any finite number
    /// whose JSON text, written to the millionth, stays finite.
    public static let payloadNumber = NumberDomain(-1e300...1e300)
    /// How far an accelerometer's reading must stray from gravity alone to count as a shake.
    public static let shakeThreshold = NumberDomain(0...1_000, unit: "g", excludingLowerBound: true)
    /// A slider's step: the values it takes are its minimum plus a whole number of steps.
    public static let sliderStep = NumberDomain(0...1e12, excludingLowerBound: true)
    /// A user or group id (the socket's allowed peers).
    public static let unixID = NumberDomain(0...4_294_967_295, wholeNumbers: true)

    /// The largest layout file, in bytes.
    public static let maximumLayoutBytes = 4 << 20
    /// The deepest a value may be nested in a layout file: the parts of its key path (table
    /// headers, dotted keys, inline tables and arrays each add one), e.g. `view[2].frame[0]` has 4.
    public static let maximumLayoutNesting = 32
    /// The most values (keys and array elements) a layout file may hold: bounds the memory of its
    /// parse before the parse (a 10,000-view layout with a handler per view holds about 120,000).
    public static let maximumLayoutValues = 250_000
    /// The most entries an array of a layout may have: each array of tables (`[[window]]`,
    /// `[[handler]]`, ... but `[[view]]`, which ``maximumViews`` bounds) and each list of ids.
    public static let maximumLayoutEntries = 10_000
}

// MARK: Input devices, recordings and calibration files

extension Limits {
    /// Any value the kernel's input structures hold (`struct input_event`'s value, every field of
    /// `struct input_absinfo`): a 32-bit signed integer. A device may declare any of them, so
    /// everything computed from them must be safe for all of them.
    public static let kernelValue = NumberDomain(Double(Int32.min)...Double(Int32.max), wholeNumbers: true)
    /// An event type: `EV_SYN` (0) to `EV_MAX` (0x1f).
    public static let eventType = NumberDomain(0...0x1f, wholeNumbers: true)
    /// An event code of any type: 0 to `KEY_MAX` (0x2ff), the largest code of any type.
    public static let eventCode = NumberDomain(0...0x2ff, wholeNumbers: true)
    /// An absolute axis code: `ABS_X` (0) to `ABS_MAX` (0x3f).
    public static let absoluteAxisCode = NumberDomain(0...0x3f, wholeNumbers: true)
    /// An input property: `INPUT_PROP_POINTER` (0) to `INPUT_PROP_MAX` (0x1f).
    public static let inputProperty = NumberDomain(0...0x1f, wholeNumbers: true)
    /// The whole seconds of a recorded event's time (epoch, uptime or relative: at most twelve
    /// digits).
    public static let eventSeconds = NumberDomain(0...999_999_999_999, unit: "seconds", wholeNumbers: true)
    /// The microseconds of a recorded event's time.
    public static let eventMicroseconds = NumberDomain(0...999_999, unit: "microseconds", wholeNumbers: true)
    /// The most multi-touch slots (protocol B) a device is read with. A device, live or recorded,
    /// that declares more is read through its first slots, with a warning.
    public static let maximumSlots = 256

    /// The largest recording file read (evemu, libinput-record, getevent).
    public static let maximumRecordingBytes = 64 * 1024 * 1024
    /// The most events a recording may hold (hours of touching; 16 MB in memory).
    public static let maximumRecordingEvents = 1_000_000
    /// The largest device description file read (`.desc`, `.device`).
    public static let maximumDescriptionBytes = 1024 * 1024
    /// The most description lines (`N:`, `I:`, `P:`, `B:`, `A:`) an evemu file may hold.
    public static let maximumDescriptionLines = 4_096
    /// The longest device name, in UTF-8 bytes (the kernel's are at most a few hundred).
    public static let maximumDeviceNameBytes = 1_024
    /// The most bytes of one event type's code bitmask (`B:` lines): 96 bytes hold every code up
    /// to `KEY_MAX`.
    public static let maximumCodeMaskBytes = 96
    /// The most bytes of the input property bitmask (`P:` lines).
    public static let maximumPropertyMaskBytes = 8
    /// The most YAML nodes a libinput-record file may expand to, every alias counted at the size
    /// of what it stands for: six nodes an event, so about 160,000 events. A composed node takes
    /// some 200 bytes, so this bounds a libinput-record file's memory to about 200 MB.
    public static let maximumYAMLNodes = 1_000_000
    /// The deepest YAML nesting a libinput-record file may have (the format needs six levels).
    public static let maximumYAMLDepth = 32

    /// The largest pointercal file read: it holds ten integers.
    public static let maximumPointercalBytes = 64 * 1024
    /// A pointercal coefficient (`a0` … `a6`): what tslib's `ts_calibrate` writes, a C `int`.
    public static let pointercalCoefficient = NumberDomain(Double(Int32.min)...Double(Int32.max), wholeNumbers: true)
    /// A pointercal screen size (`xres`, `yres`).
    public static let pointercalScreenSize = NumberDomain(1...1_000_000, unit: "pixels", wholeNumbers: true)
    /// A pointercal rotation: tslib's quarter turns.
    public static let pointercalRotation = NumberDomain(0...3, unit: "quarter turns", wholeNumbers: true)
    /// A coefficient of a calibration matrix in normalised coordinates (udev's
    /// `LIBINPUT_CALIBRATION_MATRIX`, a layout's `calibration`, one derived from a pointercal
    /// file): real ones are within a few units; a million leaves every product finite.
    public static let calibrationCoefficient = NumberDomain(-1_000_000...1_000_000)
    /// The largest calibration file read (``maximumCalibrationPoints`` residuals and a matrix).
    public static let maximumCalibrationFileBytes = 64 * 1024
    /// The most targets a calibration session shows (and residuals its file lists); a fit needs 3.
    public static let maximumCalibrationPoints = 64
    /// How far, at least, a calibration's touches must spread compared with their targets (the
    /// root mean square of their distances from their centre, in the device's normalised
    /// coordinates): touches huddled in one spot fit a matrix that means nothing. A panel whose
    /// touches reach a fifth of the way its targets do is far off any real one's.
    public static let minimumCalibrationSpread = 0.2
    /// The farthest a calibration's touch may land from its target once fitted, in millimetres of
    /// the window's display: about a fingertip's width. A real panel's residuals are under a
    /// millimetre or two; more means a touch missed its target, so the fit is refused.
    public static let maximumCalibrationResidual = 10.0
    /// The most samples a calibration session keeps (touches the client has not yet assigned).
    public static let maximumCalibrationSamples = 1_024
    /// A sample's number in a calibration session (the daemon numbers them from 1).
    public static let calibrationSampleNumber = NumberDomain(1...Double(maximumCalibrationSamples), wholeNumbers: true)
    /// A target's number in a calibration session (from 0, in the order the session lists them).
    public static let calibrationTargetNumber = NumberDomain(0...Double(maximumCalibrationPoints - 1), wholeNumbers: true)
    /// How long a recording or a measurement made from the command line lasts, at most: a day.
    public static let captureDuration = NumberDomain(0...86_400, unit: "seconds", excludingLowerBound: true)
}
