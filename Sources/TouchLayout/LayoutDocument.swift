/// A validated touchd layout file: the view tree touches are dispatched into, its handlers, and
/// the input devices that feed it.
///
/// # The layout file
///
/// A layout file is TOML 1.0. It describes windows, view controllers and views as flat lists
/// joined by ids (`parent`, `view`, `root_controller`, ...), so a deep tree stays readable.
///
/// General rules:
///
/// - **Ids.** Every id is a non-empty string, unique across *all* responders: windows, views,
///   controllers, the application and the app delegate (`"application"` and `"app_delegate"`
///   unless `[application]` renames them). Ids are compared exactly (case-sensitive).
/// - **Order.** Entries keep their file order. Views with the same parent are siblings in file
///   order: a later sibling is on top of an earlier one (z-order). Entries may refer to entries
///   further down the file.
/// - **Numbers.** Wherever a number is expected it may be written as an integer (`300`) or a
///   float (`300.0`). Keys documented as *integer* need an integer (`2.0` is refused).
///   `inf` and `nan` are refused everywhere.
/// - **Booleans** are `true` or `false`; strings are TOML strings.
/// - **Unknown keys are errors** (they are usually typos); the message suggests the closest
///   known key, and knows UIKit spellings such as `userInteractionEnabled` → `interactive`.
/// - **All problems are reported at once**, each with file, line, column, key path and the
///   expectation; nothing is loaded unless the whole file is valid.
/// - Coordinates and sizes are in points. Each frame is in its parent's coordinate space
///   (its bounds, i.e. offset by the parent's `bounds_origin`); a window spans
///   `(0, 0, size)`.
///
/// ## Top level
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `version` | integer | `1` | must be `1` | Format version. |
/// | `[application]` | table | see below | | The application and its delegate. |
/// | `[tap]` | table | see below | | How `tapCount` is counted. |
/// | `[queue]` | table | see below | | The application event queue. |
/// | `[[window]]` | array of tables | | at least one | Windows. |
/// | `[[controller]]` | array of tables | none | | View controllers. |
/// | `[[view]]` | array of tables | none | | Views. |
/// | `[[handler]]` | array of tables | none | | What responders do with touches. |
/// | `[[device]]` | array of tables | none | | Input devices and where their touches go. |
///
/// Writing `[window]` (one table) where `[[window]]` is meant is reported as such.
///
/// ## `[application]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `id` | string | `"application"` | non-empty, unique id | The application's responder id (`UIApplication`). |
/// | `delegate` | string | `"app_delegate"` | non-empty, unique id | The app delegate's responder id, the last responder of every chain. |
///
/// ## `[tap]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `interval` | number (s) | `0.35` | finite, > 0 | The longest pause between a tap's lift-off and the next touch-down that still counts up. |
/// | `distance_mm` | number (mm) | `7.0` | finite, > 0 | The farthest the next tap may land from the previous one. |
/// | `max_duration` | number (s) | `0.75` | finite, > 0 | A touch held longer is no tap. |
/// | `slop_mm` | number (mm) | `7.0` | finite, > 0 | A touch that moves further from where it landed is no tap. |
///
/// Millimetres convert to points through the window's `points_per_mm`.
///
/// ## `[queue]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `capacity` | integer | `1024` | 16 ... 1048576 | How many events the application event queue holds. |
///
/// ## `[[window]]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `id` | string | required | non-empty, unique id | The window's id. |
/// | `size` | `[width, height]` | required | two finite numbers >= 0 | Size in points; the window spans `(0, 0, width, height)`. |
/// | `level` | number | `0` | finite | `windowLevel`: windows of one display are hit-tested from the highest level down. |
/// | `key` | boolean | see meaning | at most one window with `true` | The key window. With no `key = true` anywhere, the first window not marked `key = false` is key. |
/// | `points_per_mm` | number | `6.4` | finite, > 0 | Screen density (6.4 ≈ 163 ppi); converts the `[tap]` millimetres. |
/// | `display` | string | `"default"` | non-empty | The display the window is on; windows of one display overlay each other. |
/// | `root_controller` | string | none | a controller id | `rootViewController`. Its root view must be a top-level view of this window (`parent` = this window), and a controller is the root of at most one window. |
///
/// A window without views is fine.
///
/// ## `[[controller]]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `id` | string | required | non-empty, unique id | The controller's id. |
/// | `view` | string | required | a view id; each view is the root of at most one controller | The controller's root view; the controller is that view's next responder. |
/// | `presented_by` | string | none | a controller id, not itself, no cycles | The presenting controller (`presentingViewController`). |
///
/// ## `[[view]]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `id` | string | required | non-empty, unique id | The view's id. |
/// | `parent` | string | required | a window id or a view id; no cycles | The superview, or the window for a top-level view. |
/// | `frame` | `[x, y, width, height]` | required | four finite numbers, width and height >= 0 | The frame in the parent's coordinates. |
/// | `bounds_origin` | `[x, y]` | `[0, 0]` | two finite numbers | `bounds.origin`: shifts the coordinates of the view's subviews. |
/// | `hidden` | boolean | `false` | | `isHidden`: a hidden view and its subviews are never hit. |
/// | `alpha` | number | `1` | 0 ... 1 | Opacity; below 0.01 the view is never hit. |
/// | `interactive` | boolean | `true` | | `isUserInteractionEnabled`. |
/// | `clips_to_bounds` | boolean | `false` | | `clipsToBounds` (recorded; hit-testing never leaves a superview's bounds anyway). |
/// | `multiple_touch` | boolean | `false` | | `isMultipleTouchEnabled`. |
/// | `exclusive_touch` | boolean | `false` | | `isExclusiveTouch`. |
/// | `hit_expansion` | number or `[top, left, bottom, right]` | `0` | finite, each >= 0 | Points added to the bounds on every side (one number) or per side, for hit-testing only. |
/// | `hit_test` | string | `"default"` | `"default"`, `"pass-through"`, `"capture"`, `"redirect"`, `"none"` | How the view answers hit-testing: UIKit's default; never itself (subviews still can be); always itself without asking subviews; the `redirect` view; never anything, without asking subviews. |
/// | `redirect` | string | none | required with `hit_test = "redirect"`, refused otherwise; the id of a strict descendant (a subview, or a subview of one) | The view a touch inside this one goes to. |
///
/// ## `[[handler]]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `responder` | string | required | any responder id (window, view, controller, application, app delegate) | The responder whose method this handler is. |
/// | `on` | string | required | `"touches_began"`, `"touches_moved"`, `"touches_ended"`, `"touches_cancelled"` | The responder method. |
/// | `action` | string | required | non-empty | The action emitted when the handler runs. |
/// | `payload` | any TOML value | none | no `inf`/`nan` | Data sent with the action, as JSON. Tables (inline or not) keep their keys sorted; dates and times become strings in TOML spelling. |
/// | `pass_on` | boolean | `true` | | `true`: the touch then goes on up the responder chain (like calling `super`); `false`: the handler consumes it. |
/// | `tap_count` | integer | none | >= 1 | Run only for touches whose `tapCount` equals it. |
///
/// A responder may have several handlers. All that match run, in file order; the touch then goes on
/// up the responder chain only if every one of them has `pass_on = true`.
///
/// ## `[[device]]`
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `match` | table | `{}` (every device) | see below | Which devices this entry takes. |
/// | `window` | string | required | a window id | The window the device's touches go to. |
/// | `region` | `[x, y, width, height]` | the whole window | four finite numbers, width and height >= 0 | The part of the window (window points) the device surface maps onto. |
/// | `rotation` | number | `0` | `0`, `90`, `180` or `270` | Clockwise rotation of the device axes. |
/// | `swap_axes` | boolean | `false` | | Swap x and y. |
/// | `invert_x` | boolean | `false` | | Mirror x. |
/// | `invert_y` | boolean | `false` | | Mirror y. |
/// | `calibration` | 6 numbers | none | finite; not with `pointercal` | A libinput calibration matrix `[a, b, c, d, e, f]` (x' = a·x + b·y + c, y' = d·x + e·y + f, in normalised units). |
/// | `udev_calibration` | boolean | `true` | | Use udev's `LIBINPUT_CALIBRATION_MATRIX` when the device has one; ignored when `calibration` is set. |
/// | `pointercal` | string | none | non-empty; not with `calibration` | A tslib `pointercal` file. A relative path resolves against the layout file's directory. |
/// | `grab` | boolean | `true` | | Grab the device exclusively (`EVIOCGRAB`). |
/// | `palm_pressure` | integer | none | >= 0 | Contacts at or above this pressure (device units) are palms. |
/// | `palm_touch_major` | integer | none | >= 0 | Contacts at or above this touch-major (device units) are palms. |
///
/// `match` may be written as dotted keys (`match.kind = "touchscreen"`), an inline table
/// (`match = { kind = "touchscreen" }`) or a `[device.match]` table after the `[[device]]`.
/// Every criterion given must hold:
///
/// | Key | Type | Default | Constraint | Meaning |
/// |---|---|---|---|---|
/// | `kind` | string | `"any"` | `"touchscreen"`, `"touchpad"`, `"any"` | The kind of device. |
/// | `name` | string | none | a valid glob | Glob over the device name: `*`, `?`, `[abc]`, `[a-z]`, `[!a-z]`, `\` escapes; whole name, case-sensitive. |
/// | `usb` | string | none | `"vvvv:pppp"`, 4 hex digits each | USB vendor and product ids. |
/// | `id_path` | string | none | non-empty | udev `ID_PATH`, exact. |
/// | `id_serial` | string | none | non-empty | udev `ID_SERIAL`, exact. |
/// | `devnode` | string | none | non-empty | The device node, e.g. `/dev/input/event5`, exact. |
///
/// ## Errors
///
/// Each problem is a ``LayoutIssue``; all of them are thrown together as ``LayoutErrors``,
/// sorted by line. An issue reads `FILE:LINE:COLUMN: LOCATION: MESSAGE`, where LOCATION is the
/// key path with the entry's id when known, and MESSAGE says what is wrong and what was expected:
///
/// ```
/// kiosk.toml:14:1: view "blue" (view[2]).alpha: 1.5 is out of range: expected a number from 0 to 1
/// kiosk.toml:9:1: view "blue" (view[2]).hiden: unknown key "hiden" in a [[view]]: did you mean "hidden"?
/// ```
///
/// The checks: TOML syntax (with line and column; unquoted values must follow the TOML 1.0
/// grammar, and a bare word such as `id = main` is told to use quotes); unknown keys; wrong types; missing required
/// keys; ranges (sizes, alpha, tap settings, queue capacity, hit expansion, rotation, integers);
/// duplicate ids; references to unknown (or wrong kinds of) windows, views, controllers and
/// responders; cycles of view parents and of presenting controllers; a view that is the root of
/// two controllers; a controller that is the root of two windows; a root controller whose view is
/// not a top-level view of its window; redirect targets that are not strict descendants; more
/// than one key window; calibration not six finite numbers; calibration together with pointercal;
/// malformed USB ids and globs; empty strings; `version` other than 1; a file without windows;
/// a file that cannot be read (with the system's reason) or is not UTF-8.
public struct LayoutDocument: Hashable, Sendable {
    /// `version`; always 1.
    public var version: Int
    public var application: ApplicationSpec
    public var tap: TapSpec
    public var queue: QueueSpec
    /// `[[window]]` entries, in file order. Exactly one is key unless all say `key = false`.
    public var windows: [WindowSpec]
    /// `[[controller]]` entries, in file order.
    public var controllers: [ControllerSpec]
    /// `[[view]]` entries, in file order (so siblings are in z-order, bottom first).
    public var views: [ViewSpec]
    /// `[[handler]]` entries, in file order.
    public var handlers: [HandlerSpec]
    /// `[[device]]` entries, in file order.
    public var devices: [DeviceSpec]
    /// `[[gesture]]` entries, in file order.
    public var gestures: [GestureSpec]
    /// `[daemon]`: the socket's path, permissions and allowed peers.
    public var daemon: DaemonSpec
    /// `[[control]]` entries, in file order.
    public var controls: [ControlLayoutSpec]

    public init(
        version: Int = 1, application: ApplicationSpec = ApplicationSpec(), tap: TapSpec = TapSpec(),
        queue: QueueSpec = QueueSpec(), windows: [WindowSpec] = [], controllers: [ControllerSpec] = [],
        views: [ViewSpec] = [], handlers: [HandlerSpec] = [], devices: [DeviceSpec] = [], gestures: [GestureSpec] = [],
        daemon: DaemonSpec = DaemonSpec(), controls: [ControlLayoutSpec] = []
    ) {
        self.version = version
        self.application = application
        self.tap = tap
        self.queue = queue
        self.windows = windows
        self.controllers = controllers
        self.views = views
        self.handlers = handlers
        self.devices = devices
        self.gestures = gestures
        self.daemon = daemon
        self.controls = controls
    }

    public func window(_ id: String) -> WindowSpec? { windows.first { $0.id == id } }
    public func controller(_ id: String) -> ControllerSpec? { controllers.first { $0.id == id } }
    public func view(_ id: String) -> ViewSpec? { views.first { $0.id == id } }

    /// The key window, if any.
    public var keyWindow: WindowSpec? { windows.first(where: \.isKey) }

    /// The views whose parent is `id` (a window or a view), bottom to top.
    public func subviews(of id: String) -> [ViewSpec] { views.filter { $0.parent == id } }

    /// The handlers of responder `id`, in file order.
    public func handlers(for id: String) -> [HandlerSpec] { handlers.filter { $0.responder == id } }

    /// The window a view is in, following parents (nil only for an id that is no view).
    public func window(containing viewID: String) -> WindowSpec? {
        var current = viewID
        for _ in 0...views.count {
            if let window = window(current) { return window }
            guard let view = view(current) else { return nil }
            current = view.parent
        }
        return nil
    }
}
