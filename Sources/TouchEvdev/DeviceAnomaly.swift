/// Something odd in an event stream that a decoder (``EventStreamDecoder``) worked around: a value
/// for the caller to log (the decoders themselves log nothing), naming whose fault it is.
public struct DeviceAnomaly: Hashable, Sendable, CustomStringConvertible {
    /// Who is to blame.
    public enum Blame: String, Hashable, Sendable {
        /// The kernel driver or the device's firmware sent something the protocol does not allow.
        case device
        /// The process reading the device was too slow and the kernel dropped events.
        case reader
    }

    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// `SYN_DROPPED`: the kernel's buffer overflowed; the frame in progress was discarded.
        case eventsDropped
        /// `ABS_MT_SLOT` named a slot the device did not declare; events for it are ignored until the
        /// next valid `ABS_MT_SLOT`.
        case slotOutOfRange(slot: Int32, slotCount: Int)
        /// A new tracking id arrived on a slot whose contact never ended: the old contact is ended and a
        /// new one begins ("multiple touch down for the same slot").
        case trackingIDReplaced(slot: Int32, old: Int32, new: Int32)
        /// Tracking id -1 on a slot with no contact.
        case releaseWithoutContact(slot: Int32)
        /// A contact began and ended between two `SYN_REPORT`s, too short to report.
        case contactShorterThanAFrame(slot: Int32?)
        /// A protocol-A frame held more contacts than the assembler tracks; the rest were ignored.
        case tooManyContacts(count: Int, limit: Int)
        /// A frame grew past the assembler's limit without a `SYN_REPORT`; it was discarded like a
        /// `SYN_DROPPED`.
        case frameTooLong(limit: Int)
        /// The description declares more slots than the assembler tracks.
        case tooManySlots(declared: Int, limit: Int)
        /// The description's `ABS_MT_SLOT` declares no slot (a maximum below 0): one is read.
        case noSlots(maximum: Int32)
        /// A contact began outside the declared position range (the eGalax controller in the
        /// recordings never sends `ABS_X`/`ABS_Y`, so its touches sit at the description's value).
        case beganOutsideAxisRange(x: Int32, y: Int32)
    }

    /// The time of the event (or frame) concerned.
    public var time: EventTime
    /// What happened.
    public var kind: Kind

    /// An anomaly of `kind` at `time`.
    public init(time: EventTime, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// Whose fault it is: the device for protocol violations, the reader for lost events.
    public var blame: Blame {
        switch kind {
        case .eventsDropped: return .reader
        case .slotOutOfRange, .trackingIDReplaced, .releaseWithoutContact, .contactShorterThanAFrame,
            .tooManyContacts, .frameTooLong, .tooManySlots, .noSlots, .beganOutsideAxisRange:
            return .device
        }
    }

    /// One line for a log: time, blame and what was done about it.
    public var description: String {
        let what: String
        switch kind {
        case .eventsDropped:
            what = "SYN_DROPPED: events were lost (reader too slow); the incomplete frame was discarded"
        case .slotOutOfRange(let slot, let count):
            what = "ABS_MT_SLOT \(slot) is outside the device's \(count) slots; its events were ignored"
        case .trackingIDReplaced(let slot, let old, let new):
            what = "slot \(slot) got tracking id \(new) while \(old) was still down; ended \(old), began \(new)"
        case .releaseWithoutContact(let slot):
            what = "tracking id -1 on slot \(slot), which had no contact"
        case .contactShorterThanAFrame(let slot):
            what = "a contact began and ended within one frame\(slot.map { " on slot \($0)" } ?? ""); not reported"
        case .tooManyContacts(let count, let limit):
            what = "\(count) protocol-A contacts in one frame; only the first \(limit) were tracked"
        case .frameTooLong(let limit):
            what = "more than \(limit) events without SYN_REPORT; the frame was discarded"
        case .tooManySlots(let declared, let limit):
            what = "the device declares \(declared) slots; only the first \(limit) are tracked"
        case .noSlots(let maximum):
            what = "ABS_MT_SLOT declares no slots (its maximum is \(maximum)); slot 0 is read"
        case .beganOutsideAxisRange(let x, let y):
            what = "a contact began at (\(x), \(y)), outside the declared position range"
        }
        return "\(time) [\(blame.rawValue)] \(what)"
    }
}
