import TouchCore

/// A validated touchd layout file: the view tree touches are dispatched into, its handlers,
/// gesture recognizers and controls, and the input devices that feed it.
///
/// `docs/layout.md` is the reference of the file: every key, its default, its domain and the
/// budgets of the file. A document comes from ``LayoutLoader``, which fills in every default and
/// checks every value and reference, so ``makeApplication(file:)`` cannot fail on it. Entries are
/// the core's own values (``TouchCore/Handler``, ``TouchCore/GestureRecognizerSpec``,
/// ``TouchCore/ControlSpec``, ...) wherever the core has one.
public struct LayoutDocument: Hashable, Sendable {
    /// `version`; always 1.
    public var version: Int
    public var application: ApplicationSpec
    /// `[tap]` and `[queue]`: how taps are counted and how many events the queue holds.
    public var settings: ApplicationSettings
    /// `[[window]]` entries, in file order. Exactly one is key unless all say `key = false`.
    public var windows: [WindowSpec]
    /// `[[controller]]` entries, in file order.
    public var controllers: [ControllerSpec]
    /// `[[view]]` entries, in file order (so siblings are in z-order, bottom first).
    public var views: [ViewSpec]
    /// `[[handler]]` entries, in file order.
    public var handlers: [Handler]
    /// `[[device]]` entries, in file order.
    public var devices: [DeviceSpec]
    /// `[[gesture]]` entries, in file order.
    public var gestures: [GestureRecognizerSpec]
    /// `[daemon]`: the socket's path, permissions and allowed peers.
    public var daemon: DaemonSpec
    /// `[[control]]` entries, in file order.
    public var controls: [ControlSpec]

    public init(
        version: Int = 1, application: ApplicationSpec = ApplicationSpec(), settings: ApplicationSettings = ApplicationSettings(),
        windows: [WindowSpec] = [], controllers: [ControllerSpec] = [], views: [ViewSpec] = [], handlers: [Handler] = [],
        devices: [DeviceSpec] = [], gestures: [GestureRecognizerSpec] = [], daemon: DaemonSpec = DaemonSpec(),
        controls: [ControlSpec] = []
    ) {
        self.version = version
        self.application = application
        self.settings = settings
        self.windows = windows
        self.controllers = controllers
        self.views = views
        self.handlers = handlers
        self.devices = devices
        self.gestures = gestures
        self.daemon = daemon
        self.controls = controls
    }

    /// The window with this id, if any.
    public func window(_ id: ResponderID) -> WindowSpec? { windows.first { $0.id == id } }
    /// The controller with this id, if any.
    public func controller(_ id: ResponderID) -> ControllerSpec? { controllers.first { $0.id == id } }
    /// The view with this id, if any.
    public func view(_ id: ResponderID) -> ViewSpec? { views.first { $0.id == id } }

    /// The key window, if any.
    public var keyWindow: WindowSpec? { windows.first(where: \.isKey) }

    /// The views whose parent is `id` (a window or a view), bottom to top.
    public func subviews(of id: ResponderID) -> [ViewSpec] { views.filter { $0.parent == id } }

    /// The handlers of responder `id`, in file order.
    public func handlers(for id: ResponderID) -> [Handler] { handlers.filter { $0.responder == id } }

    /// The window a view is in, following parents (nil only for an id that is no view).
    public func window(containing viewID: ResponderID) -> WindowSpec? {
        var current = viewID
        for _ in 0...views.count {
            if let window = window(current) { return window }
            guard let view = view(current) else { return nil }
            current = view.parent
        }
        return nil
    }
}
