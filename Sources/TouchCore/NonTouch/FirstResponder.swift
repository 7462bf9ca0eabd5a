/// Whether a responder can be the first responder, and whether it lets go when asked.
/// The counterparts of `canBecomeFirstResponder` and `canResignFirstResponder`.
public struct FirstResponderTraits: Hashable, Sendable {
    public var responder: ResponderID
    /// `canBecomeFirstResponder`: UIKit's default is false, so a responder must opt in.
    public var canBecome: Bool
    /// `canResignFirstResponder`: UIKit's default is true. A responder that refuses keeps the
    /// first-responder status against `resign` and against another responder's `become`; hiding or
    /// removing it still makes it resign.
    public var canResign: Bool

    public init(responder: ResponderID, canBecome: Bool = true, canResign: Bool = true) {
        self.responder = responder
        self.canBecome = canBecome
        self.canResign = canResign
    }
}

/// What a handler does to the first responder when it runs.
public enum FirstResponderEffect: Hashable, Sendable {
    /// `becomeFirstResponder()` on the named responder.
    case become(ResponderID)
    /// `resignFirstResponder()` on the named responder.
    case resign(ResponderID)
}

/// Why the first responder of a window changed.
public enum FirstResponderCause: Hashable, Sendable {
    /// The layout's initial first responder.
    case layout
    /// A handler's effect (the handler's action name).
    case handler(String)
    /// A request from a client.
    case request
    /// The first responder, or a view above it, was hidden.
    case hidden
    /// The first responder left the tree.
    case removed

    /// `layout`, `handler`, `request`, `hidden`, `removed`.
    public var name: String {
        switch self {
        case .layout: "layout"
        case .handler: "handler"
        case .request: "request"
        case .hidden: "hidden"
        case .removed: "removed"
        }
    }
}

/// One change of a window's first responder.
public struct FirstResponderChange: Hashable, Sendable {
    public var window: ResponderID
    /// The responder that resigned, if any.
    public var previous: ResponderID?
    /// The new first responder, or `nil` when the window has none now.
    public var current: ResponderID?
    public var cause: FirstResponderCause
    /// Seconds: the event's time for a handler's change; `nil` for changes made between events.
    public var timestamp: InputTime?

    public init(window: ResponderID, previous: ResponderID?, current: ResponderID?, cause: FirstResponderCause, timestamp: InputTime? = nil) {
        self.window = window
        self.previous = previous
        self.current = current
        self.cause = cause
        self.timestamp = timestamp
    }
}

/// Why a responder could not become or resign first responder.
public enum FirstResponderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No such responder.
    case unknownResponder(ResponderID)
    /// The application and its delegate belong to no window.
    case notInWindow(ResponderID)
    /// `canBecomeFirstResponder` is false.
    case cannotBecome(ResponderID)
    /// The responder, or a view above it, is hidden.
    case hidden(ResponderID)
    /// The current first responder refuses to resign.
    case currentRefusesToResign(current: ResponderID)
    /// `resign` on a responder that is not the first responder.
    case notFirstResponder(ResponderID)

    public var description: String {
        switch self {
        case .unknownResponder(let id): "\"\(id)\" is not a responder of the tree"
        case .notInWindow(let id): "\"\(id)\" belongs to no window: only windows, views and view controllers can be first responder"
        case .cannotBecome(let id): "\"\(id)\" cannot become first responder (it has no can_become_first_responder = true)"
        case .hidden(let id): "\"\(id)\" is hidden, or a view above it is"
        case .currentRefusesToResign(let current):
            "the first responder \"\(current)\" refuses to resign (can_resign_first_responder = false)"
        case .notFirstResponder(let id): "\"\(id)\" is not the first responder"
        }
    }
}

extension Application {
    /// The first responder of `window` (`nil` when it has none).
    public func firstResponder(of window: ResponderID) -> ResponderID? { firstResponders[window] }

    /// Whether `responder` is the first responder of its window (`isFirstResponder`).
    public func isFirstResponder(_ responder: ResponderID) -> Bool { firstResponders.values.contains(responder) }

    /// Every window's first responder, by window.
    public var firstRespondersByWindow: [ResponderID: ResponderID] { firstResponders }

    /// Declares whether a responder can become and resign first responder (between events).
    public mutating func setFirstResponderTraits(_ traits: FirstResponderTraits) {
        responderTraits[traits.responder] = traits
    }

    /// A responder's traits: UIKit's defaults (cannot become, can resign) unless declared.
    public func firstResponderTraits(of responder: ResponderID) -> FirstResponderTraits {
        responderTraits[responder] ?? FirstResponderTraits(responder: responder, canBecome: false, canResign: true)
    }

    /// `becomeFirstResponder()`: makes `responder` the first responder of its window, after the
    /// current one resigns. Returns the change, or `nil` when it already was.
    public mutating func becomeFirstResponder(
        _ responder: ResponderID, cause: FirstResponderCause = .request, timestamp: InputTime? = nil
    ) throws(FirstResponderError) -> FirstResponderChange? {
        guard tree.kind(of: responder) != nil else { throw .unknownResponder(responder) }
        guard let window = windowOfResponder(responder) else { throw .notInWindow(responder) }
        guard firstResponderTraits(of: responder).canBecome else { throw .cannotBecome(responder) }
        guard !isHiddenResponder(responder) else { throw .hidden(responder) }
        let previous = firstResponders[window]
        if previous == responder { return nil }
        if let previous, !firstResponderTraits(of: previous).canResign { throw .currentRefusesToResign(current: previous) }
        firstResponders[window] = responder
        return FirstResponderChange(window: window, previous: previous, current: responder, cause: cause, timestamp: timestamp)
    }

    /// `resignFirstResponder()`: `responder` stops being its window's first responder.
    public mutating func resignFirstResponder(
        _ responder: ResponderID, cause: FirstResponderCause = .request, timestamp: InputTime? = nil
    ) throws(FirstResponderError) -> FirstResponderChange {
        guard let window = firstResponders.first(where: { $0.value == responder })?.key else { throw .notFirstResponder(responder) }
        guard firstResponderTraits(of: responder).canResign else { throw .currentRefusesToResign(current: responder) }
        firstResponders[window] = nil
        return FirstResponderChange(window: window, previous: responder, current: nil, cause: cause, timestamp: timestamp)
    }

    /// The changes made by the tree changing under the first responders (a first responder hidden
    /// or removed resigns) since the last call.
    public mutating func takeFirstResponderChanges() -> [FirstResponderChange] {
        defer { pendingFirstResponderChanges = [] }
        return pendingFirstResponderChanges
    }

    /// Makes first responders that were hidden or removed resign, whatever their traits say.
    mutating func enforceFirstResponders() {
        for window in firstResponders.keys.sorted() {
            guard let responder = firstResponders[window] else { continue }
            let cause: FirstResponderCause?
            if tree.kind(of: window) != .window || tree.kind(of: responder) == nil || windowOfResponder(responder) != window {
                cause = .removed
            } else if isHiddenResponder(responder) {
                cause = .hidden
            } else {
                cause = nil
            }
            guard let cause else { continue }
            firstResponders[window] = nil
            pendingFirstResponderChanges.append(FirstResponderChange(window: window, previous: responder, current: nil, cause: cause))
        }
    }

    /// The window of a view, a controller (its root view's) or a window itself.
    func windowOfResponder(_ responder: ResponderID) -> ResponderID? {
        switch tree.kind(of: responder) {
        case .view, .window: return tree.window(of: responder)
        case .controller: return tree.controllerProperties(of: responder).flatMap { tree.window(of: $0.view) }
        case .application, .appDelegate, nil: return nil
        }
    }

    /// Whether a view (or a controller's root view) or a view above it is hidden.
    func isHiddenResponder(_ responder: ResponderID) -> Bool {
        let view: ResponderID
        switch tree.kind(of: responder) {
        case .view: view = responder
        case .controller: view = tree.controllerProperties(of: responder)!.view
        default: return false
        }
        return tree.path(to: view).contains { tree.properties(of: $0)?.isHidden == true }
    }

    /// Where an event without a touch starts in `window` (the key window when `nil`): the first
    /// responder, else the root view controller's view, else the window.
    public func nonTouchEventStart(in window: ResponderID?) -> ResponderID? {
        guard let window = window ?? tree.keyWindow else { return nil }
        if let first = firstResponders[window] { return first }
        if let root = tree.windowProperties(of: window)?.rootController, let view = tree.controllerProperties(of: root)?.view {
            return view
        }
        return tree.kind(of: window) == .window ? window : nil
    }
}
