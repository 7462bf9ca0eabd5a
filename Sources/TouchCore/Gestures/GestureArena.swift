/// The gesture recognizers of an application and the touches they hold back from views.
///
/// Arbitration as UIKit does it: recognizers see their touches before the views; when one recognizes
/// (or begins), every other recognizer tracking those touches that may not recognize simultaneously
/// with it fails; a recognizer that requires another to fail waits for it, and fails if that one
/// recognizes instead (whatever their order of attachment); `cancelsTouchesInView`
/// cancels the views' touches up their responder chains; `delaysTouchesBegan`/`delaysTouchesEnded`
/// hold the views' calls until the recognizer fails (then they are delivered) or recognizes (then
/// they are dropped or turned into cancellations). A recognizer gets every touch hit-tested into its
/// view or a subview, even one its view does not get for lack of multiple touch; one attached above a
/// control fails rather than take over the control's own action (`UIControl`'s
/// `gestureRecognizerShouldBegin`).
///
/// Recognizers get their inputs through it, in place (``touchesChanged(_:_:time:)``,
/// ``timerFired(_:at:)``, ``apply(_:to:time:)``, ``reset(_:time:)``); what each touch's view calls
/// await is one ``TouchArbitration`` per touch.
struct GestureArena: Sendable {
    var recognizers: [ResponderID: GestureRecognizer] = [:]
    /// Attachment order: recognizers are asked in this order.
    private(set) var order: [ResponderID] = []
    /// Each recognizer's place in ``order``.
    private var position: [ResponderID: Int] = [:]
    /// The recognizers given a touch since they were attached or last reset: the only ones that
    /// can be deciding, wait on a timer, hold a recognition back or have finished. What an event
    /// asks of every recognizer in one of those states goes through these alone, so its cost
    /// follows the recognizers of the touches down, not all the recognizers of the application.
    private(set) var engaged: Set<ResponderID> = []
    /// Finished touches whose record stays while a recognizer was given them or one of their view
    /// calls is held: the only records ``forgetRetired()`` has to look at.
    private var retired: [TouchID] = []
    /// Recognizers by the view they are attached to.
    var byView: [ResponderID: [ResponderID]] = [:]
    /// The recognizers that require each recognizer to fail, in attachment order: who a failure
    /// lets go ahead, found without going through every recognizer.
    private(set) var waiters: [ResponderID: [ResponderID]] = [:]
    /// What arbitration knows of each touch it still has to answer for: a touch has a record from
    /// its touch-down (when it reaches recognizers or its view's `touchesBegan`) until it has
    /// finished and no recognizer tracks or holds it.
    var touches: [TouchID: TouchArbitration] = [:]
    /// Emptied lists of recognizers from forgotten records, for the next touches to land: a
    /// touch-down takes one rather than allocate its own.
    private var spareRecognizerLists: [[ResponderID]] = []
    /// The recognizers' state changes, oldest first, while they are traced; `nil` (nothing
    /// recorded, nothing described) otherwise.
    var trace: [GestureTransition]?

    mutating func add(_ recognizer: GestureRecognizer) {
        let id = recognizer.spec.id
        let replacing = recognizers[id] != nil
        if !replacing {
            position[id] = order.count
            order.append(id)
        }
        engaged.remove(id)
        recognizers[id] = recognizer
        byView[recognizer.spec.view, default: []].append(id)
        if replacing {
            indexWaiters()
        } else {
            // The newest recognizer is the last in attachment order.
            for other in recognizer.spec.requiresFailureOf where waiters[other]?.last != id { waiters[other, default: []].append(id) }
        }
    }

    /// Detaches the recognizers of `view`; returns those that remain and required one of them to
    /// fail, in attachment order (a removed recognizer fails no more: they must decide again).
    @discardableResult
    mutating func remove(attachedTo view: ResponderID) -> [ResponderID] {
        guard let ids = byView[view] else { return [] }
        let orphaned = ids.flatMap { waiters[$0] ?? [] }
        for id in ids { recognizers[id] = nil }
        let removed = Set(ids)
        order.removeAll { removed.contains($0) }
        engaged.subtract(removed)
        position = [:]
        for (i, id) in order.enumerated() { position[id] = i }
        byView[view] = nil
        indexWaiters()
        var waiting: [ResponderID] = []
        for id in order where orphaned.contains(id) { waiting.append(id) }
        return waiting
    }

    /// Builds ``waiters`` again from the recognizers, in attachment order.
    private mutating func indexWaiters() {
        waiters = [:]
        for id in order {
            for other in recognizers[id]?.spec.requiresFailureOf ?? [] where waiters[other]?.last != id {
                waiters[other, default: []].append(id)
            }
        }
    }

    var isEmpty: Bool { recognizers.isEmpty }

    /// Recognizer `id`'s place in attachment order (in ``order``).
    func position(of id: ResponderID) -> Int? { position[id] }

    /// Puts `ids` in attachment order into `list`, which keeps its room (a dispatch's own list).
    func inOrder(_ ids: some Sequence<ResponderID>, into list: inout [ResponderID]) {
        list.removeAll(keepingCapacity: true)
        // The table alone, for the comparisons: capturing `self` would copy the whole arena.
        let position = position
        for id in ids where position[id] != nil { list.append(id) }
        list.sort { (position[$0] ?? 0) < (position[$1] ?? 0) }
    }

    /// The earliest timer of any recognizer (only a recognizer given a touch has one).
    /// (A loop: a lazy map's closure would capture, and allocate, a copy of the recognizers.)
    var nextDeadline: InputTime? {
        var earliest: InputTime?
        for id in engaged {
            guard let deadline = recognizers[id]?.deadline else { continue }
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    /// The recognizers whose timers are due at or before `time`, first due first (by id among
    /// equals): the order ``nextTimer`` gives them in, found in one pass.
    func timers(dueBy time: InputTime) -> [(id: ResponderID, due: InputTime)] {
        var due: [(id: ResponderID, due: InputTime)] = []
        for id in engaged {
            if let deadline = recognizers[id]?.deadline, deadline <= time { due.append((id, deadline)) }
        }
        return due.sorted { $0.due < $1.due || ($0.due == $1.due && $0.id < $1.id) }
    }

    /// The recognizer whose timer is due first (the first by id among equals), and when.
    var nextTimer: (id: ResponderID, due: InputTime)? {
        var next: (id: ResponderID, due: InputTime)?
        for id in engaged {
            guard let due = recognizers[id]?.deadline else { continue }
            if let current = next, current.due < due || (current.due == due && current.id < id) { continue }
            next = (id, due)
        }
        return next
    }

    // MARK: - Inputs to recognizers

    /// Gives recognizer `id` one event's changes to its touches; returns the state it proposes.
    mutating func touchesChanged(_ id: ResponderID, _ touches: [Touch], time: InputTime) -> GestureState? {
        engaged.insert(id)
        let described = { "touches " + touches.map { "\($0.id) \($0.phase.rawValue)" }.joined(separator: ", ") }
        return step(id, time: time, input: described) { $0.touchesChanged(touches, time: time) } ?? nil
    }

    /// Fires recognizer `id`'s timer; returns the state it proposes.
    mutating func timerFired(_ id: ResponderID, at time: InputTime) -> GestureState? {
        step(id, time: time, input: { "timer" }) { $0.timerFired() } ?? nil
    }

    /// Applies the arena's decision to recognizer `id`'s lifecycle; returns whether it was taken.
    mutating func apply(_ input: GestureLifecycle.Input, to id: ResponderID, time: InputTime) -> Bool {
        step(id, time: time, input: { input.description }) { $0.apply(input) } ?? false
    }

    /// Resets recognizer `id`: its touches have all finished.
    mutating func reset(_ id: ResponderID, time: InputTime) {
        step(id, time: time, input: { "reset" }) { $0.reset() }
        engaged.remove(id)
    }

    /// Gives recognizer `id` an input, in place; when tracing, records its state change.
    private mutating func step<Result>(
        _ id: ResponderID, time: InputTime, input: () -> String, _ body: (inout GestureRecognizer) -> Result
    ) -> Result? {
        guard let i = recognizers.index(forKey: id) else { return nil }
        guard trace != nil else { return body(&recognizers.values[i]) }
        let from = recognizers.values[i].traceDescription
        let result = body(&recognizers.values[i])
        let to = recognizers.values[i].traceDescription
        if to != from { trace?.append(GestureTransition(recognizer: id, timestamp: time, from: from, input: input(), to: to)) }
        return result
    }

    // MARK: - Touches

    func simultaneous(_ a: ResponderID, _ b: ResponderID) -> Bool {
        guard let ra = recognizers[a], let rb = recognizers[b] else { return false }
        return ra.spec.recognizesSimultaneouslyWith.contains(b) || rb.spec.recognizesSimultaneouslyWith.contains(a)
    }

    /// Whether a recognizer tracking `touch` still holds its view calls back with `flag`. The
    /// recognizers are asked last first: when one recognizes, the others fail in attachment order,
    /// each failure asking this again, and the last of them answers it at once until its own turn.
    func holds(_ touch: TouchID, _ flag: KeyPath<GestureRecognizerSpec, Bool>) -> Bool {
        (touches[touch]?.recognizers ?? []).reversed().contains { id in
            guard let r = recognizers[id] else { return false }
            return r.spec[keyPath: flag] && r.state == .possible && r.isEngaged
        }
    }

    /// Whether a recognizer took `touch` from the views.
    func isClaimed(_ touch: TouchID) -> Bool { touches[touch]?.claimed == true }

    /// Whether a recognizer took any touch from the views (one that may outlive its recognizer).
    var hasClaims: Bool { !touches.isEmpty && touches.values.contains { $0.claimed } }

    /// The touches a recognizer took from the views.
    var claimed: Set<TouchID> { Set(touches.lazy.filter(\.value.claimed).map(\.key)) }

    /// The touches whose `touchesBegan` the views got.
    var deliveredBegan: Set<TouchID> { Set(touches.lazy.filter(\.value.beganDelivered).map(\.key)) }

    /// Notes that the views got `touchesBegan` for `touch`.
    mutating func beganDelivered(_ touch: TouchID) { touches[touch, default: TouchArbitration()].beganDelivered = true }

    /// Forgets the record of a touch that has finished, unless a recognizer was given it (then
    /// resetting the recognizers forgets it) or holds one of its view calls back.
    mutating func forgetUnwatched(_ touch: TouchID) {
        guard let record = touches[touch] else { return }
        guard record.recognizers == nil, !record.isHolding else {
            if record.recognizers != nil { retired.append(touch) }
            return
        }
        forget(touch)
    }

    /// An empty list for a landing touch's recognizers, with room from a forgotten touch's.
    mutating func takeRecognizerList() -> [ResponderID] { spareRecognizerLists.popLast() ?? [] }

    /// Drops `touch`'s record; its list of recognizers is kept for a touch to come.
    private mutating func forget(_ touch: TouchID) {
        guard var list = touches.removeValue(forKey: touch)?.recognizers, spareRecognizerLists.count < 16 else { return }
        list.removeAll(keepingCapacity: true)
        spareRecognizerLists.append(list)
    }

    /// Forgets the records of finished touches that recognizers were given once none of their
    /// view calls is held any more (the recognizers that tracked them have been reset or have
    /// let them go).
    mutating func forgetRetired() {
        guard !retired.isEmpty else { return }
        // The records still held back move to the front, in place.
        var kept = 0
        for k in retired.indices {
            let touch = retired[k]
            guard let record = touches[touch], record.recognizers != nil else { continue }
            if record.isHolding {
                retired[kept] = touch
                kept += 1
            } else {
                forget(touch)
            }
        }
        retired.removeLast(retired.count - kept)
    }
}

/// What gesture arbitration knows of one touch.
///
/// The views' calls for a touch go through three stages: a recognizer may hold its `touchesBegan`
/// back (`heldBegan`), then its `touchesEnded` (`heldEnded`, which also keeps the end of a touch whose
/// began is still held); the views get a held call once no recognizer holds it (`beganDelivered`
/// notes a delivered began), and none once a recognizer takes the touch (`claimed`).
struct TouchArbitration: Sendable {
    /// The recognizers the touch was given at touch-down, in attachment order; `nil` when it never
    /// reached the recognizers.
    var recognizers: [ResponderID]?
    /// Whether a recognizer took it from the views: no more view calls for it.
    var claimed = false
    /// Whether its views got `touchesBegan`.
    var beganDelivered = false
    /// Its `touchesBegan`, held back (delaysTouchesBegan).
    var heldBegan: Touch? {
        get { held?.began }
        set { held = HeldCalls(began: newValue, ended: heldEnded) }
    }
    /// Its `touchesEnded` (or cancellation), held back (delaysTouchesEnded), with its last state.
    var heldEnded: Touch? {
        get { held?.ended }
        set { held = HeldCalls(began: heldBegan, ended: newValue) }
    }
    /// The held calls, out of line: a record is copied whenever it is read, and a touch is large.
    private var held: HeldCalls?

    /// Whether one of its view calls is held back.
    var isHolding: Bool { held != nil }
}

/// A touch's held view calls: at least one of them.
private indirect enum HeldCalls: Sendable {
    case calls(began: Touch?, ended: Touch?)

    init?(began: Touch?, ended: Touch?) {
        guard began != nil || ended != nil else { return nil }
        self = .calls(began: began, ended: ended)
    }

    var began: Touch? {
        switch self {
        case .calls(let began, _): began
        }
    }

    var ended: Touch? {
        switch self {
        case .calls(_, let ended): ended
        }
    }
}
