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
struct GestureArena: Sendable {
    var recognizers: [ResponderID: GestureRecognizer] = [:]
    /// Attachment order: recognizers are asked in this order.
    var order: [ResponderID] = []
    /// Recognizers by the view they are attached to.
    var byView: [ResponderID: [ResponderID]] = [:]
    /// The recognizers each touch was given at touch-down.
    var touchRecognizers: [TouchID: [ResponderID]] = [:]
    /// Touches a recognizer took from the views: no more view calls for them.
    var claimed: Set<TouchID> = []
    /// Touches whose `touchesBegan` the views got.
    var deliveredBegan: Set<TouchID> = []
    /// Touches whose `touchesBegan` is held back (delaysTouchesBegan).
    var heldBegan: [TouchID: Touch] = [:]
    /// Touches whose `touchesEnded` is held back (delaysTouchesEnded), with their last state.
    var heldEnded: [TouchID: Touch] = [:]

    mutating func add(_ recognizer: GestureRecognizer) {
        let id = recognizer.spec.id
        if recognizers[id] == nil { order.append(id) }
        recognizers[id] = recognizer
        byView[recognizer.spec.view, default: []].append(id)
    }

    mutating func remove(attachedTo view: ResponderID) {
        for id in byView[view] ?? [] {
            recognizers[id] = nil
            order.removeAll { $0 == id }
        }
        byView[view] = nil
    }

    var isEmpty: Bool { recognizers.isEmpty }

    /// The earliest timer of any recognizer.
    var nextDeadline: Double? { recognizers.values.compactMap(\.deadline).min() }

    func simultaneous(_ a: ResponderID, _ b: ResponderID) -> Bool {
        guard let ra = recognizers[a], let rb = recognizers[b] else { return false }
        return ra.spec.recognizesSimultaneouslyWith.contains(b) || rb.spec.recognizesSimultaneouslyWith.contains(a)
    }

    /// Whether a recognizer tracking `touch` still holds its view calls back with `flag`.
    func holds(_ touch: TouchID, _ flag: KeyPath<GestureRecognizerSpec, Bool>) -> Bool {
        (touchRecognizers[touch] ?? []).contains { id in
            guard let r = recognizers[id] else { return false }
            return r.spec[keyPath: flag] && r.state == .possible && r.isEngaged
        }
    }
}
