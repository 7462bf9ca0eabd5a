import TouchCore

/// One sample of a touch's path.
public struct TouchPathPoint: Hashable, Sendable {
    /// In the touch's window's coordinates.
    public var location: Point
    /// `began` for the first point, `moved` for the samples in between, `ended` or `cancelled` last.
    public var phase: TouchPhase
    /// Seconds, on the input's clock.
    public var timestamp: InputTime

    public init(location: Point, phase: TouchPhase, timestamp: InputTime) {
        self.location = location
        self.phase = phase
        self.timestamp = timestamp
    }
}

/// The path of one touch from down to up (or cancel), and the view that received it.
public struct TouchPath: Hashable, Sendable {
    public var id: TouchID
    public var device: String
    /// The window the touch belongs to, or `nil` when no window took it.
    public var window: ResponderID?
    /// The hit-test view at touch-down (it never changes), or `nil` when no view took the point.
    public var view: ResponderID?
    public var delivery: TouchDelivery
    public var tapCount: Int
    /// The samples, oldest first (coalesced samples included).
    public var points: [TouchPathPoint]

    public init(
        id: TouchID, device: String = "", window: ResponderID?, view: ResponderID?, delivery: TouchDelivery = .delivered,
        tapCount: Int = 1, points: [TouchPathPoint]
    ) {
        self.id = id
        self.device = device
        self.window = window
        self.view = view
        self.delivery = delivery
        self.tapCount = tapCount
        self.points = points
    }

    /// The view that received the touch: its hit-test view when the touch was delivered, else `nil`
    /// (no view took the point, or the view refused a second touch or an exclusive touch elsewhere).
    public var receivingView: ResponderID? { delivery == .delivered ? view : nil }

    /// Why a touch that hit a view was not delivered to it, in the protocol's words; `nil` otherwise.
    public var refusal: String? {
        switch delivery {
        case .delivered, .noView: nil
        case .multipleTouchDisabled: "multiple_touch_disabled"
        case .exclusiveTouchElsewhere: "exclusive_touch_elsewhere"
        }
    }

    /// Where the finger came down, when the path holds its `began` sample.
    public var touchDown: Point? { points.first { $0.phase == .began }?.location }

    /// How the touch finished (`ended` or `cancelled`), or `nil` while it is still down.
    public var finalPhase: TouchPhase? { points.last.flatMap { $0.phase.isFinal ? $0.phase : nil } }
}

/// Collects touch paths from dispatch reports, for a replay or a live daemon's recent history.
public struct TouchPathRecorder: Sendable {
    /// The paths, in the order their touches began (or were first seen).
    public var paths: [TouchPath] { Array(storage[first...]) }
    /// At most this many paths are kept: the oldest finished ones go first. `nil`: no limit.
    public let limit: Int?
    /// At most this many samples are kept of one path: past it, every other sample between the
    /// first and the last is let go, so a finger held down for hours keeps its shape in bounded
    /// memory. `nil`: no limit.
    public let pointLimit: Int?
    /// The paths in order, changed in place through their position: one look-up per sample, and
    /// no path copied out and back.
    /// The paths from `first` on are the recorder's; those before it were dropped and hold
    /// nothing. Dropping the oldest path, which a full recorder does at every new touch, moves
    /// `first` on instead of the others down; they move down together once half of the array is
    /// dropped places. (An array, not a deque: its elements are read in place, a deque's copied.)
    private var storage: [TouchPath] = []
    /// Where the recorder's paths begin in `storage` (and `serials`).
    private var first = 0
    /// The serial number of each path in `storage` (at the same position): increasing, so that a
    /// path's position is found by halves, and dropping a path moves the others without
    /// renumbering them.
    private var serials: [Int] = []
    /// Each path's serial number.
    private var slots: [TouchID: Int] = [:]
    /// The serial number of the next path.
    private var nextSerial = 0

    /// A recorder keeps at least one path (a smaller `limit` counts as 1) and at least four samples
    /// of a path, its first and last and some between (a smaller `pointLimit` counts as 4).
    public init(limit: Int? = nil, pointLimit: Int? = nil) {
        self.limit = limit.map { max(1, $0) }
        self.pointLimit = pointLimit.map { max(4, $0) }
    }

    /// Records the changed touches of a dispatch report.
    public mutating func record(_ report: DispatchReport) {
        // Field by field from the report's array: passing a whole touch on copies it.
        let touches = report.changedTouches
        for i in touches.indices {
            let id = touches[i].id
            if slots[id] == nil { startPath(of: touches[i]) }
            guard let slot = position(of: id) else { continue }
            append(
                at: slot, phase: touches[i].phase, location: touches[i].locationInWindow, timestamp: touches[i].timestamp,
                coalesced: touches[i].coalescedSamples, delivery: touches[i].delivery)
        }
    }

    /// Records one touch's new state: the coalesced samples it carries (oldest first), then its
    /// current location. A touch first seen mid-path starts a path there. A finished path takes no
    /// more samples.
    public mutating func record(_ touch: Touch) {
        if slots[touch.id] == nil { startPath(of: touch) }
        guard let slot = position(of: touch.id) else { return }
        append(
            at: slot, phase: touch.phase, location: touch.locationInWindow, timestamp: touch.timestamp, coalesced: touch.coalescedSamples,
            delivery: touch.delivery)
    }

    /// Starts an empty path for a touch first seen, dropping the oldest past ``limit``.
    private mutating func startPath(of touch: Touch) {
        storage.append(
            TouchPath(
                id: touch.id, device: touch.device, window: touch.window, view: touch.view, delivery: touch.delivery,
                tapCount: touch.tapCount, points: []))
        serials.append(nextSerial)
        slots[touch.id] = nextSerial
        nextSerial += 1
        trim()
    }

    /// Where the path of touch `id` is in `storage`, or `nil` when it has none (or it was dropped).
    private func position(of id: TouchID) -> Int? {
        guard let serial = slots[id] else { return nil }
        var low = first
        var high = serials.count
        while low < high {
            let middle = (low + high) / 2
            if serials[middle] < serial { low = middle + 1 } else { high = middle }
        }
        return low < serials.count && serials[low] == serial ? low : nil
    }

    /// Adds a touch's samples to the path at `slot`, in place, unless the path has finished.
    private mutating func append(
        at slot: Int, phase: TouchPhase, location: Point, timestamp: InputTime, coalesced: [TouchSample], delivery: TouchDelivery
    ) {
        guard storage[slot].points.last.map({ !$0.phase.isFinal }) ?? true else { return }
        if phase != .began {
            for sample in coalesced {
                storage[slot].points.append(TouchPathPoint(location: sample.locationInWindow, phase: .moved, timestamp: sample.timestamp))
            }
        }
        storage[slot].points.append(TouchPathPoint(location: location, phase: phase, timestamp: timestamp))
        storage[slot].delivery = delivery
        if let pointLimit, storage[slot].points.count > pointLimit { thin(at: slot) }
    }

    /// Keeps the first and last samples and every other one between.
    private mutating func thin(at i: Int) {
        let points = storage[i].points
        var kept: [TouchPathPoint] = []
        kept.reserveCapacity(points.count / 2 + 2)
        for (n, point) in points.enumerated() where n == 0 || n == points.count - 1 || n % 2 == 0 { kept.append(point) }
        storage[i].points = kept
    }

    /// Forgets every path.
    public mutating func removeAll() {
        storage = []
        serials = []
        first = 0
        slots = [:]
    }

    /// Drops paths beyond ``limit``: the oldest finished one, or the oldest. The oldest goes by
    /// moving `first` on; another by moving those after it down a place. Either way the paths keep
    /// their serial numbers: nothing is renumbered (renumbering them cost a dictionary write per
    /// kept path at every touch-down once the recorder was full).
    private mutating func trim() {
        guard let limit else { return }
        while storage.count - first > limit {
            var victim = first
            while victim < storage.count && storage[victim].finalPhase == nil { victim += 1 }
            if victim == storage.count { victim = first }
            slots[storage[victim].id] = nil
            if victim == first {
                storage[first] = TouchPath(id: 0, window: nil, view: nil, points: [])
                first += 1
            } else {
                storage.remove(at: victim)
                serials.remove(at: victim)
            }
        }
        if first > 32 && 2 * first > storage.count {
            storage.removeFirst(first)
            serials.removeFirst(first)
            first = 0
        }
    }
}
