extension Application {
    /// Lists a dispatch fills and empties again, kept in the application between dispatches: a
    /// frame's dispatch finds them with the room the last one left rather than allocating each
    /// anew (a move frame is dispatched up to hundreds of times a second).
    ///
    /// A dispatch takes a list out (``take(_:)``) while it works with it, so that it can change the
    /// rest of the application meanwhile, and puts it back emptied (``putBack(_:into:)``). Nothing
    /// in them outlives the dispatch that filled them but `reportTouches` and `reportHits`, which
    /// the last report shares until the next dispatch begins.
    struct DispatchScratch: Sendable {
        /// The changed touches' places in `live`.
        var changed: [Int] = []
        /// The finished touches' places in `live`.
        var finished: [Int] = []
        /// The view calls of one phase, one per delivered touch.
        var calls: [ViewCall] = []
        /// The touches of one call: a view's or a recognizer's.
        var touches: [Touch] = []
        /// Recognizers in attachment order (those a recognition fails, those a reset looks at).
        var recognizers: [ResponderID] = []
        /// Which recognizer gets which changed touch.
        var recognizerTouches: [RecognizerTouch] = []
        /// The last report's changed touches, shared with it: emptied as the next dispatch begins
        /// (before the touches settle, so that their sample lists are theirs alone again), its
        /// room used again once that report is gone.
        var reportTouches: [Touch] = []
        /// The last touch-down report's hit records, shared with it in the same way.
        var reportHits: [HitRecord] = []
        /// The path from its window to each view touches landed on since the tree last lost a
        /// view: a hit record shares its view's (a view never moves to another superview).
        var hitPaths = [ResponderID: [ResponderID]](minimumCapacity: Application.hitPathsKeptAtMost)
    }

    /// The most views ``DispatchScratch/hitPaths`` keeps paths of; past it, it starts again.
    static let hitPathsKeptAtMost = 256

    /// A changed touch's call of its view: the view, and the touch's place in the changed touches.
    struct ViewCall: Sendable {
        var view: ResponderID
        var touch: Int
    }

    /// A changed touch a recognizer gets: the recognizer's place in attachment order, and the
    /// touch's place in the changed touches.
    struct RecognizerTouch: Sendable {
        var recognizer: Int
        var touch: Int

        /// Recognizers in attachment order, each one's touches in the event's order.
        static func < (a: Self, b: Self) -> Bool { a.recognizer < b.recognizer || (a.recognizer == b.recognizer && a.touch < b.touch) }
    }

    /// Takes the list out of `place` (with its room), leaving an empty one there.
    static func take<Element>(_ place: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &place)
        return taken
    }

    /// Empties `list` and puts it back in `place`, its room kept for the next dispatch.
    static func putBack<Element>(_ list: inout [Element], into place: inout [Element]) {
        list.removeAll(keepingCapacity: true)
        swap(&list, &place)
    }
}
