import TouchCore
import TouchEvdev
import TouchSystem

/// A created virtual touchscreen the events of forwarded touches are written to.
public protocol VirtualTouchscreenOutput: AnyObject {
    /// Writes `events` as they are; the kernel stamps them.
    func write(_ events: [InputEvent]) throws
    /// Removes the device (once).
    func destroy()
}

extension UinputDevice: VirtualTouchscreenOutput {
    public func write(_ events: [InputEvent]) throws {
        try write(types: events.map(\.type), codes: events.map(\.code), values: events.map(\.value))
    }

    /// A uinput device for a virtual touchscreen's description.
    public convenience init(_ description: VirtualTouchscreenDescription, path: String = UinputDevice.defaultPath) throws(SystemError) {
        let axes = description.axes.map {
            UinputSetup.Axis(code: $0.code, minimum: $0.minimum, maximum: $0.maximum, resolution: $0.resolution)
        }
        try self.init(
            UinputSetup(
                name: description.name, phys: description.phys, bus: description.bus, vendor: description.vendor,
                product: description.product, version: description.version, keys: description.keys,
                properties: description.properties, axes: axes),
            path: path)
    }
}

/// The windows' virtual touchscreens: one per window some of whose touches go on (`forward` in the
/// layout), created when a layout needs it and removed when a reload drops its window or the
/// daemon stops. What the application forwards (``DispatchReport/forwarded``) is played on them.
///
/// A touchscreen that cannot be made (no `/dev/uinput`, or not allowed to open it) is reported once
/// per layout, with what to do; the rest of the daemon goes on, its window's touches not forwarded.
public final class VirtualTouchscreens: ReportSink {
    /// Makes a window's device (a uinput device for the daemon, a fake in tests).
    public typealias Maker = (VirtualTouchscreenDescription) throws -> any VirtualTouchscreenOutput

    private struct Screen {
        var state: VirtualTouchscreen
        let output: any VirtualTouchscreenOutput
    }

    private let make: Maker
    private let warn: (String) -> Void
    private let note: (String) -> Void
    private var screens: [ResponderID: Screen] = [:]
    /// Windows whose device could not be made with this layout (reported once).
    private var failed: Set<ResponderID> = []

    /// - Parameters:
    ///   - make: makes a window's device.
    ///   - warn: hears what went wrong (a device that cannot be made or written).
    ///   - note: hears devices created and removed.
    public init(make: @escaping Maker, warn: @escaping (String) -> Void, note: @escaping (String) -> Void = { _ in }) {
        self.make = make
        self.warn = warn
        self.note = note
    }

    /// The daemon's: uinput devices at `path`.
    public convenience init(uinputPath: String = UinputDevice.defaultPath, warn: @escaping (String) -> Void, note: @escaping (String) -> Void) {
        self.init(make: { description in try UinputDevice(description, path: uinputPath) }, warn: warn, note: note)
    }

    /// The windows with a device now, in order.
    public var windows: [ResponderID] { screens.keys.sorted() }

    public func applicationChanged(_ app: Application) {
        var wanted: [ResponderID: VirtualTouchscreenDescription] = [:]
        for window in app.forwardingWindows {
            guard let properties = app.tree.windowProperties(of: window) else { continue }
            wanted[window] = VirtualTouchscreenDescription(
                window: window.rawValue, size: properties.size, pointsPerMillimetre: properties.pointsPerMillimetre)
        }
        for (window, screen) in screens where wanted[window] != screen.state.description {
            remove(window)
        }
        failed = []
        for window in wanted.keys.sorted() where screens[window] == nil {
            guard let description = wanted[window] else { continue }
            do {
                let output = try make(description)
                screens[window] = Screen(state: VirtualTouchscreen(description), output: output)
                note("created \"\(description.name)\" (\(description.phys)) for window \(window)")
            } catch {
                failed.insert(window)
                warn(
                    "cannot create the virtual touchscreen of window \(window): \(error); its touches are not forwarded "
                        + "(touchd needs write access to /dev/uinput: see docs/operations.md, touchd in front of a GUI)")
            }
        }
    }

    public func deliver(_ report: DispatchReport) { play(report.forwarded) }

    public func deliverAhead(_ forwarded: [ForwardedTouch]) { play(forwarded) }

    /// Plays forwarded touches' steps on their windows' devices: one write per window.
    private func play(_ forwarded: [ForwardedTouch]) {
        guard !forwarded.isEmpty, !screens.isEmpty else { return }
        // Nearly always one window: its steps are all of them.
        let first = forwarded[0].window
        if forwarded.allSatisfy({ $0.window == first }) { return play(forwarded, on: first) }
        var windows: [ResponderID] = []
        for touch in forwarded where !windows.contains(touch.window) { windows.append(touch.window) }
        for window in windows { play(forwarded.filter { $0.window == window }, on: window) }
    }

    private func play(_ steps: [ForwardedTouch], on window: ResponderID) {
        // The state changed in place, where the dictionary holds it (a copy would copy its slots).
        guard let events = screens[window]?.state.events(for: steps), let output = screens[window]?.output else { return }
        write(events, to: output, window: window)
    }

    public func stop() {
        for window in windows { remove(window) }
    }

    /// Cancels the touches of a window's device and removes it.
    private func remove(_ window: ResponderID) {
        guard var screen = screens.removeValue(forKey: window) else { return }
        write(screen.state.cancelAll(timestamp: 0), to: screen.output, window: window)
        screen.output.destroy()
        note("removed \"\(screen.state.description.name)\"")
    }

    private func write(_ events: [InputEvent], to output: any VirtualTouchscreenOutput, window: ResponderID) {
        guard !events.isEmpty else { return }
        do {
            try output.write(events)
        } catch {
            warn("cannot write to the virtual touchscreen of window \(window): \(error)")
        }
    }
}
