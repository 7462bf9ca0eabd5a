import TouchCore

/// What the contacts of one touch device measured, each over its whole life: its largest touch
/// size and pressure, in device units and in physical ones, and the palm thresholds
/// (`palm_touch_major`, `palm_pressure`) they suggest: what `libinput measure touch-size` and
/// `touch-pressure` show, for a layout's `[[device]]` entry.
///
/// Fed the contact frames of ``assembler(for:)``, which cancels no palm (so that palms are
/// measured, not cancelled, those the device flags `MT_TOOL_PALM` too). Memory is bounded: at most ``maximumContacts`` contacts are kept (later
/// ones are counted), and each keeps at most ``maximumSamplesPerContact`` samples for its median
/// (its largest value is always exact).
///
/// Its clock never runs backwards: a frame earlier than the one before (a recording whose time
/// goes backwards: a device reset, files joined) is taken at that one's time, and the frames
/// after it keep their spacing. No contact then begins before the start or ends before it began.
public struct ContactSizeSurvey: Sendable {
    /// The most contacts kept.
    public static let maximumContacts = 10_000
    /// The most samples a contact keeps for its median.
    public static let maximumSamplesPerContact = 10_000

    /// One contact's life.
    public struct Contact: Hashable, Sendable {
        /// The assembler's contact id.
        public var id: UInt64
        /// When it began and when it was last seen.
        public var began: EventTime
        public var last: EventTime
        /// How many frames it was in.
        public var frames = 0
        /// Its touch major and pressure in each frame (device units), when the device reports them.
        public var touchMajors: [Int32] = []
        public var pressures: [Int32] = []
        /// The largest of each.
        public var largestTouchMajor: Int32?
        public var largestPressure: Int32?
        /// Whether the device flagged it a palm (`ABS_MT_TOOL_TYPE` = `MT_TOOL_PALM`) in any frame.
        public var flaggedPalm = false
    }

    /// The device's axes.
    public let capabilities: DeviceCapabilities
    /// The contacts that have ended (or were cut off by ``finish()``), in the order they began.
    public private(set) var contacts: [Contact] = []
    /// Contacts not kept past ``maximumContacts``.
    public private(set) var contactsLeftOut = 0
    /// When the measurement began: the recording's first event, or the first frame; contacts'
    /// times are reported from it.
    public private(set) var start: EventTime?
    private var live: [UInt64: Contact] = [:]
    /// The latest frame time on the survey's clock, and what is added to frames' times to put
    /// them on it (the time the recording's clock went back by, in all).
    private var latest: EventTime?
    private var shift: Int64 = 0

    /// A survey of a device with these axes.
    public init(capabilities: DeviceCapabilities) { self.capabilities = capabilities }

    /// The assembler whose frames a survey of the device `description` describes takes: it
    /// cancels no contact as a palm, not even one the device flags `MT_TOOL_PALM`, so that palms
    /// are measured whole.
    public static func assembler(for description: DeviceDescription) -> FrameAssembler {
        FrameAssembler(description: description, palmThresholds: .measuring)
    }

    /// The measurement began at `time` (a recording's first event), unless it began earlier.
    public mutating func begin(at time: EventTime) {
        if start.map({ time < $0 }) ?? true { start = time }
    }

    /// Takes one frame's contacts into account.
    public mutating func add(_ frame: ContactFrame) {
        if start == nil { start = frame.time }
        let time = onClock(frame.time)
        for contact in frame.contacts {
            var entry = live[contact.id] ?? Contact(id: contact.id, began: time, last: time)
            entry.last = time
            entry.frames += 1
            if contact.toolType == MTToolType.palm { entry.flaggedPalm = true }
            if let size = contact.touchMajor {
                if entry.touchMajors.count < Self.maximumSamplesPerContact { entry.touchMajors.append(size) }
                entry.largestTouchMajor = max(entry.largestTouchMajor ?? size, size)
            }
            if let pressure = contact.pressure {
                if entry.pressures.count < Self.maximumSamplesPerContact { entry.pressures.append(pressure) }
                entry.largestPressure = max(entry.largestPressure ?? pressure, pressure)
            }
            if contact.phase.isFinal {
                live[contact.id] = nil
                keep(entry)
            } else {
                live[contact.id] = entry
            }
        }
    }

    /// `time` on the survey's clock: shifted by the time the recording's clock went back by, and
    /// never before the latest frame's (nor the start).
    private mutating func onClock(_ time: EventTime) -> EventTime {
        let floor = latest ?? start ?? time
        let (shifted, overflow) = time.microseconds.addingReportingOverflow(shift)
        guard !overflow, shifted >= floor.microseconds else {
            // Back in time: the clock stays where it was, and later frames are shifted as far.
            let (back, backOverflow) = floor.microseconds.subtractingReportingOverflow(time.microseconds)
            if !backOverflow { shift = back }
            latest = floor
            return floor
        }
        latest = EventTime(microseconds: shifted)
        return EventTime(microseconds: shifted)
    }

    /// Ends the contacts still down (the measurement stopped), oldest first.
    public mutating func finish() {
        for entry in live.values.sorted(by: { $0.id < $1.id }) { keep(entry) }
        live = [:]
    }

    private mutating func keep(_ contact: Contact) {
        guard contacts.count < Self.maximumContacts else { return contactsLeftOut += 1 }
        contacts.append(contact)
    }

    /// Device units per millimetre of the position axes (the mean of x's and y's resolution), which
    /// touch major is measured in; nil when the device gives none.
    public var unitsPerMillimetre: Double? {
        guard let x = capabilities.xAxis?.resolution, let y = capabilities.yAxis?.resolution, x > 0, y > 0 else { return nil }
        return (Double(x) + Double(y)) / 2
    }

    /// The touch-size and pressure measures over every contact kept.
    public var report: ContactSizeReport {
        let perMillimetre = unitsPerMillimetre
        let size = ContactSizeReport.Measure(
            key: "palm_touch_major", axisName: "touch major", axis: capabilities.touchMajorAxis,
            largest: contacts.compactMap(\.largestTouchMajor),
            format: { value in perMillimetre.map { "\(value) (\(ContactSizeReport.decimal(Double(value) / $0)) mm)" } ?? "\(value)" })
        let pressureAxis = capabilities.pressureAxis
        let pressure = ContactSizeReport.Measure(
            key: "palm_pressure", axisName: "pressure", axis: pressureAxis, largest: contacts.compactMap(\.largestPressure),
            format: { value in
                guard let axis = pressureAxis, axis.maximum > axis.minimum else { return "\(value)" }
                let fraction = (Double(value) - Double(axis.minimum)) / (Double(axis.maximum) - Double(axis.minimum))
                return "\(value) (\(ContactSizeReport.decimal(fraction * 100)) % of the range)"
            })
        return ContactSizeReport(
            contacts: contacts, contactsLeftOut: contactsLeftOut, start: start ?? EventTime(microseconds: 0), unitsPerMillimetre: perMillimetre,
            touchMajor: size, pressure: pressure)
    }
}

/// A ``ContactSizeSurvey``'s findings: each contact, and for touch size and pressure the
/// distribution of the contacts' largest values with the palm threshold they suggest and why.
public struct ContactSizeReport: Sendable {
    /// One measure (touch major or pressure) over the contacts.
    public struct Measure: Sendable {
        /// The layout key the suggestion is for: `palm_touch_major` or `palm_pressure`.
        public let key: String
        /// `touch major` or `pressure`.
        public let axisName: String
        /// The device's axis, when it has one.
        public let axis: AbsInfo?
        /// Each contact's largest value (device units), sorted.
        public let largest: [Int32]
        /// A value in device units with its physical meaning: `190 (11.9 mm)`.
        public let format: @Sendable (Int32) -> String

        init(key: String, axisName: String, axis: AbsInfo?, largest: [Int32], format: @escaping @Sendable (Int32) -> String) {
            self.key = key
            self.axisName = axisName
            self.axis = axis
            self.largest = largest.sorted()
            self.format = format
        }

        /// The value below which `fraction` of the contacts' largest values lie (nearest rank).
        public func percentile(_ fraction: Double) -> Int32? {
            guard !largest.isEmpty else { return nil }
            let rank = Int(rounding: fraction * Double(largest.count - 1), .toNearestOrAwayFromZero, clampedTo: 0...(largest.count - 1))
            return largest[rank]
        }

        /// The suggested threshold (device units) and why; nil with the reason when there is none.
        public var suggestion: (value: Int?, reason: String) {
            PalmThresholdSuggestion.suggest(largest, axisMinimum: axis?.minimum, axisMaximum: axis?.maximum, name: axisName, format: format)
        }
    }

    public let contacts: [ContactSizeSurvey.Contact]
    public let contactsLeftOut: Int
    /// When the measurement began (``ContactSizeSurvey/start``).
    public let start: EventTime
    public let unitsPerMillimetre: Double?
    public let touchMajor: Measure
    public let pressure: Measure

    /// Seconds from the measurement's start to `time`: how the text and `--json` give a contact's times.
    public func secondsFromStart(_ time: EventTime) -> Double {
        time.span(since: start).seconds
    }

    /// The report as text, one line each: the contacts, each measure's distribution, and the
    /// suggestions with their reasons.
    public var lines: [String] {
        var lines = ["contact  began (s)  duration (s)  frames  largest touch major  largest pressure"]
        for contact in contacts {
            let duration = contact.last.span(since: contact.began).seconds
            lines.append(
                "\(pad(String(contact.id), 7))  \(pad(Self.decimal(secondsFromStart(contact.began)), 9))  \(pad(Self.decimal(duration), 12))  "
                    + "\(pad(String(contact.frames), 6))  \(pad(contact.largestTouchMajor.map(touchMajor.format) ?? "-", 19))  "
                    + (contact.largestPressure.map(pressure.format) ?? "-"))
        }
        if contactsLeftOut > 0 { lines.append("(\(contactsLeftOut) more contacts not kept)") }
        let flagged = contacts.filter(\.flaggedPalm).count
        if flagged > 0 {
            lines.append(
                "\(flagged) contact\(flagged == 1 ? " was" : "s were") flagged a palm by the device (MT_TOOL_PALM): "
                    + "touchd cancels those whatever the thresholds")
        }
        if unitsPerMillimetre == nil { lines.append("the device gives no resolution: touch sizes are in device units only") }
        for measure in [touchMajor, pressure] {
            if let low = measure.percentile(0), let median = measure.percentile(0.5), let high = measure.percentile(0.9), let top = measure.percentile(1) {
                lines.append(
                    "\(measure.axisName) over \(measure.largest.count) contacts: least \(measure.format(low)), median \(measure.format(median)), "
                        + "90 % \(measure.format(high)), most \(measure.format(top))")
            }
            let (value, reason) = measure.suggestion
            lines.append(value.map { "suggested \(measure.key) = \($0): \(reason)" } ?? "no \(measure.key) suggested: \(reason)")
        }
        return lines
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `value` with at most two decimals: `11.9`, `0.12`.
    public static func decimal(_ value: Double) -> String {
        let hundredths = Int(rounding: value * 100, .toNearestOrAwayFromZero, clampedTo: -1_000_000_000...1_000_000_000)
        let whole = hundredths / 100
        let rest = abs(hundredths % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if rest == 0 { return "\(sign)\(whole)" }
        return rest % 10 == 0 ? "\(sign)\(whole).\(rest / 10)" : "\(sign)\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }
}

/// Where a palm threshold goes, from each contact's largest value.
///
/// Values are measured from the axis's minimum (a pressure axis from 1000 to 2000 presses nothing
/// at 1000), or from 0 without an axis. Contacts that split into two groups with a clear gap
/// between them (the next larger value at least ``gapRatio`` times as far from the minimum as the
/// one below it, and more than one step of the device's scale above it, ``scaleStep(of:)``) are
/// taken as fingers below and palms above: the threshold is the middle of the widest such gap (by
/// ratio). Without a gap, every contact is taken for a finger and the threshold is ``gapRatio``
/// times the largest, unless that is past the axis's maximum (then no value can tell palms apart).
/// A threshold is a layout's, from 0: one below 0 becomes 0 when that still parts fingers from
/// palms, else none is suggested. Fewer than ``minimumContacts`` contacts suggest nothing.
public enum PalmThresholdSuggestion {
    /// How much larger a palm must be than the largest finger for the two to count as apart.
    public static let gapRatio = 1.5
    /// The fewest contacts a suggestion is made from.
    public static let minimumContacts = 3

    /// The threshold for `values` (each contact's largest, in device units) and why, or nil and why
    /// not. `format` writes a value with its physical meaning; `name` is the measure's. The axis's
    /// range, when known, is where values are measured from and the most a threshold may be.
    public static func suggest(
        _ values: [Int32], axisMinimum: Int32? = nil, axisMaximum: Int32?, name: String, format: (Int32) -> String
    ) -> (value: Int?, reason: String) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return (nil, "no contact reported a \(name) (the device has no such axis, or nothing touched it)") }
        guard sorted.count >= minimumContacts else {
            return (nil, "only \(sorted.count) contact\(sorted.count == 1 ? "" : "s"): touch at least \(minimumContacts) times, with fingers and with the flat of a hand")
        }
        var origin = 0
        if let axisMinimum, let axisMaximum, axisMinimum < axisMaximum { origin = Int(axisMinimum) }
        let fromMinimum = origin == 0 ? "" : " (counted from the axis's minimum \(origin))"
        if let (i, ratio) = widestGap(sorted, origin: origin) {
            let (low, high) = (Int(sorted[i]), Int(sorted[i + 1]))
            guard high > 0 else {
                return (nil, "the larger contacts (palms) reached at most \(format(sorted[i + 1])), below 0, where a [[device]] entry's thresholds start: \(name) cannot tell palms apart on this device")
            }
            return (
                max((low + high) / 2, 0),
                "\(i + 1) contact\(i == 0 ? "" : "s") reached at most \(format(sorted[i])) and \(sorted.count - i - 1) reached "
                    + "\(format(sorted[i + 1])) or more, \(ContactSizeReport.decimal(ratio))× as much\(fromMinimum): the threshold sits in that gap, so the "
                    + "smaller contacts (fingers) stay below it and the larger ones (palms) go above it"
            )
        }
        let top = Int(sorted[sorted.count - 1])
        let threshold = origin + Int(rounding: Double(top - origin) * gapRatio, .up, clampedTo: 0...(1 << 33))
        if let axisMaximum, threshold >= Int(axisMaximum) {
            return (nil, "every contact looked alike (the largest \(format(sorted[sorted.count - 1]))), and \(ContactSizeReport.decimal(gapRatio))× that\(fromMinimum) is past the axis's maximum \(axisMaximum): \(name) cannot tell palms apart on this device")
        }
        return (
            min(max(threshold, 0), Int(Int32.max)),
            "every contact looked alike (no gap of \(ContactSizeReport.decimal(gapRatio))× between two; the largest \(format(sorted[sorted.count - 1]))): "
                + "taken to be fingers, the threshold is \(ContactSizeReport.decimal(gapRatio))× the largest\(fromMinimum); measure the flat of a hand too to see where palms start"
        )
    }

    /// The widest gap between neighbours of `sorted` (by the ratio of their distances from
    /// `origin`): the index of the value below it, and the ratio; nil when there is none.
    private static func widestGap(_ sorted: [Int32], origin: Int) -> (index: Int, ratio: Double)? {
        let step = Double(scaleStep(of: sorted))
        var best: (index: Int, ratio: Double)?
        for i in 0..<(sorted.count - 1) {
            let (low, high) = (Double(Int(sorted[i]) - origin), Double(Int(sorted[i + 1]) - origin))
            let ratio = high / max(low, 1)
            guard ratio >= gapRatio, high - low >= 2, high - low > step, ratio > (best?.ratio ?? 0) else { continue }
            best = (i, ratio)
        }
        return best
    }

    /// The step of the device's own scale when the values show one: the greatest common divisor
    /// of the differences between distinct values, once three distinct values show it (0 before).
    /// A device that reports sizes in steps (80, 120, 160) puts neighbours on its scale 1.5× apart:
    /// a gap between fingers and palms must skip a value it could have reported.
    static func scaleStep(of sorted: [Int32]) -> Int64 {
        var distinct = 0
        var step: Int64 = 0
        for i in sorted.indices where i == 0 || sorted[i] != sorted[i - 1] {
            distinct += 1
            if i > 0 { step = gcd(step, Int64(sorted[i]) - Int64(sorted[i - 1])) }
        }
        return distinct >= 3 ? step : 0
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
