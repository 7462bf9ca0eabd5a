import TouchCore
import TouchEvdev

/// Follows the frames of one frame assembler and checks the life of every contact in them: each
/// begins once, appears in every frame while it is down, ends or is cancelled once, and its id is
/// never used again.
struct ContactLifeCheck {
    /// Contacts down after the last frame, by id.
    private var live: Set<UInt64> = []
    /// The highest id seen.
    private var highestID: UInt64 = 0
    /// The most contacts that may be down at once.
    let maximumLive: Int

    init(maximumLive: Int = max(Limits.maximumSlots, FrameAssembler.maximumAnonymousContacts)) {
        self.maximumLive = maximumLive
    }

    /// Whether no contact is down.
    var isIdle: Bool { live.isEmpty }

    /// Checks the next frame against what came before.
    mutating func check(_ frame: ContactFrame) throws(FuzzViolation) {
        var seen: Set<UInt64> = []
        var previousID: UInt64 = 0
        for contact in frame.contacts {
            try require(contact.id > previousID, "frame at \(frame.time): contacts out of id order or twice: \(frame.contacts)")
            previousID = contact.id
            seen.insert(contact.id)
            try follow(contact, in: frame)
        }
        let missing = live.subtracting(seen)
        try require(missing.isEmpty, "frame at \(frame.time): contacts \(missing.sorted()) are down but missing from \(frame.contacts)")
        for contact in frame.contacts where contact.phase.isFinal { live.remove(contact.id) }
        try require(live.count <= maximumLive, "frame at \(frame.time): \(live.count) contacts down, at most \(maximumLive) expected")
    }

    private mutating func follow(_ contact: DeviceContact, in frame: ContactFrame) throws(FuzzViolation) {
        if live.contains(contact.id) {
            try require(contact.phase != .began, "frame at \(frame.time): contact \(contact.id) began twice")
            return
        }
        try require(contact.id > highestID, "frame at \(frame.time): contact \(contact.id) reused an id (highest so far \(highestID))")
        try require(contact.phase == .began, "frame at \(frame.time): contact \(contact.id) first seen \(contact.phase), not began")
        highestID = contact.id
        live.insert(contact.id)
    }

    /// Checks the frame that cancels what was left (``FrameAssembler/finish(at:)``): every contact
    /// still down is cancelled in it, and none is down after it.
    mutating func checkFinish(_ frame: ContactFrame?) throws(FuzzViolation) {
        let wasLive = live
        if let frame {
            try check(frame)
            for contact in frame.contacts where wasLive.contains(contact.id) {
                try require(contact.phase == .cancelled, "finish: contact \(contact.id) left \(contact.phase), not cancelled")
            }
        }
        try require(live.isEmpty, "finish: contacts \(live.sorted()) still down after the stream was finished")
    }
}
