/// Multi-touch protocol A: each frame lists every contact anonymously (axes, then `SYN_MT_REPORT`),
/// so identity must be inferred from frame to frame.
///
/// - A frame with at least one `SYN_MT_REPORT` (even an empty one) is the complete set of contacts.
///   Axes after the last `SYN_MT_REPORT` count as one more contact (the kernel lets drivers that
///   also send `BTN_TOUCH` omit the last report).
/// - A frame without any: if `BTN_TOUCH` went to 0 in it, every contact ends; otherwise nothing
///   changed (a frame of key events only). `BTN_TOUCH` 0 next to contact reports does not end them:
///   bcm5974 touchpads drop `BTN_TOUCH` on light pressure while still reporting the fingers.
/// - A report whose `ABS_MT_TRACKING_ID` is negative names no contact (the kernel's `-1`: "no
///   contact here"): it counts as a report, as an empty `SYN_MT_REPORT` does, and adds none.
/// - Matching: by `ABS_MT_TRACKING_ID` when every contact has one (Android drivers send them);
///   otherwise greedily by distance, closest pairs first, with no distance limit (as the kernel's own
///   slot assignment does). Unmatched old contacts end; unmatched new ones begin.
///
/// Each tracked contact is `live` (reported) or `suppressed` (a palm, or cancelled by
/// ``FrameAssembler/finish(at:)``: kept only so that it is not reported again until it lifts).
struct AnonymousTracker: ContactTracker {
    /// One contact's data between two `SYN_MT_REPORT`s.
    struct Report: Sendable {
        var axes = ContactAxes()
        var trackingID: Int32?
        var isEmpty = true

        mutating func apply(code: UInt16, value: Int32) {
            if code == AbsCode.mtTrackingID {
                trackingID = value
            } else {
                axes.apply(code: code, value: value)  // orientation, minor axes, ...: not carried by contacts
            }
            isEmpty = false
        }
    }

    enum Status: Sendable {
        case live
        case suppressed
    }

    struct Tracked: Sendable {
        var id: UInt64
        var trackingID: Int32?
        var values: ContactValues
        var status: Status
    }

    private struct Candidate {
        var trackingID: Int32?
        var values: ContactValues
    }

    private let codes: ContactCodes
    private var current = Report()
    private var reports: [Report] = []
    private var sawReport = false
    private var overflow = 0
    private var tracked: [Tracked] = []
    /// Last values seen, for a report that leaves an axis out.
    private var lastX: Int32 = 0
    private var lastY: Int32 = 0

    init(capabilities: DeviceCapabilities) {
        codes = ContactCodes(capabilities)
    }

    mutating func handle(_ event: InputEvent, shared: SharedState, output: inout FrameOutput) {
        if event.type == EventType.syn && event.code == SynCode.mtReport {
            closeReport()
            sawReport = true
        } else if event.type == EventType.abs && AbsCode.multitouchRange.contains(event.code)
            && event.code != AbsCode.mtSlot
        {
            current.apply(code: event.code, value: event.value)
        }
    }

    private mutating func closeReport() {
        guard !current.isEmpty else { return }
        if let trackingID = current.trackingID, trackingID < 0 {
            sawReport = true
            current = Report()
            return
        }
        if reports.count < FrameAssembler.maximumAnonymousContacts {
            reports.append(current)
        } else {
            overflow += 1
        }
        current = Report()
    }

    mutating func endFrame(shared: SharedState, output: inout FrameOutput) {
        closeReport()
        defer {
            reports.removeAll(keepingCapacity: true)
            sawReport = false
            overflow = 0
        }
        if overflow > 0 {
            output.report(
                .tooManyContacts(
                    count: reports.count + overflow, limit: FrameAssembler.maximumAnonymousContacts))
        }
        var candidates: [Candidate] = []
        if sawReport || !reports.isEmpty {
            for report in reports {
                candidates.append(Candidate(trackingID: report.trackingID, values: values(of: report, shared: shared)))
            }
        } else if shared.touchKeyReleasedThisFrame {
            candidates = []
        } else {
            // No contact data in this frame: the contacts stay as they were (shared pressure aside).
            candidates = tracked.map { contact in
                var values = contact.values
                if codes.pressure == AbsCode.pressure { values.pressure = shared.pressure }
                return Candidate(trackingID: contact.trackingID, values: values)
            }
        }
        update(with: candidates, output: &output)
    }

    private mutating func update(with candidates: [Candidate], output: inout FrameOutput) {
        let pairs = match(candidates)
        var next: [Tracked] = []
        var matchedOld = Set<Int>()
        for (newIndex, candidate) in candidates.enumerated() {
            let values = candidate.values
            if let oldIndex = pairs[newIndex] {
                matchedOld.insert(oldIndex)
                var contact = tracked[oldIndex]
                let previous = contact.values
                contact.values = values
                contact.trackingID = candidate.trackingID
                switch contact.status {
                case .live:
                    if output.palm.isPalm(values) {
                        output.emit(id: contact.id, phase: .cancelled, values: values, slot: nil)
                        contact.status = .suppressed
                    } else {
                        output.emit(
                            id: contact.id, phase: values == previous ? .stationary : .moved, values: values, slot: nil)
                    }
                case .suppressed:
                    break
                }
                next.append(contact)
            } else {
                let id = output.newID()
                if output.palm.isPalm(values) {
                    next.append(Tracked(id: id, trackingID: candidate.trackingID, values: values, status: .suppressed))
                } else {
                    output.emit(id: id, phase: .began, values: values, slot: nil)
                    next.append(Tracked(id: id, trackingID: candidate.trackingID, values: values, status: .live))
                }
            }
        }
        for (oldIndex, contact) in tracked.enumerated() where !matchedOld.contains(oldIndex) {
            switch contact.status {
            case .live: output.emit(id: contact.id, phase: output.liftPhase, values: contact.values, slot: nil)
            case .suppressed: break
            }
        }
        tracked = next
    }

    /// For each candidate, the index of the tracked contact it continues, if any.
    private func match(_ candidates: [Candidate]) -> [Int?] {
        var result = [Int?](repeating: nil, count: candidates.count)
        guard !tracked.isEmpty, !candidates.isEmpty else { return result }
        let byTrackingID = candidates.allSatisfy { $0.trackingID != nil } && tracked.allSatisfy { $0.trackingID != nil }
        if byTrackingID {
            var oldByID: [Int32: Int] = [:]
            for (index, contact) in tracked.enumerated() {
                if let trackingID = contact.trackingID, oldByID[trackingID] == nil { oldByID[trackingID] = index }
            }
            for (index, candidate) in candidates.enumerated() {
                if let trackingID = candidate.trackingID, let old = oldByID.removeValue(forKey: trackingID) {
                    result[index] = old
                }
            }
            return result
        }
        // Squared distances in Double: Int32 extremes would overflow Int64.
        var distances: [(distance: Double, new: Int, old: Int)] = []
        distances.reserveCapacity(candidates.count * tracked.count)
        for (newIndex, candidate) in candidates.enumerated() {
            for (oldIndex, contact) in tracked.enumerated() {
                let dx = Double(candidate.values.x) - Double(contact.values.x)
                let dy = Double(candidate.values.y) - Double(contact.values.y)
                distances.append((dx * dx + dy * dy, newIndex, oldIndex))
            }
        }
        distances.sort { lhs, rhs in
            if lhs.distance != rhs.distance { return lhs.distance < rhs.distance }
            if lhs.old != rhs.old { return lhs.old < rhs.old }
            return lhs.new < rhs.new
        }
        var usedOld = Set<Int>()
        for pair in distances where result[pair.new] == nil && !usedOld.contains(pair.old) {
            result[pair.new] = pair.old
            usedOld.insert(pair.old)
        }
        return result
    }

    mutating func cancelAll(output: inout FrameOutput) {
        current = Report()
        reports.removeAll()
        sawReport = false
        for index in tracked.indices {
            switch tracked[index].status {
            case .live:
                output.emit(id: tracked[index].id, phase: .cancelled, values: tracked[index].values, slot: nil)
                tracked[index].status = .suppressed
            case .suppressed:
                break
            }
        }
    }

    /// A report's values; a position it leaves out is the last one reported.
    private mutating func values(of report: Report, shared: SharedState) -> ContactValues {
        var axes = report.axes
        if !axes.given.contains(.x) { axes.x = lastX }
        if !axes.given.contains(.y) { axes.y = lastY }
        lastX = axes.x
        lastY = axes.y
        return axes.values(codes: codes, shared: shared)
    }
}
