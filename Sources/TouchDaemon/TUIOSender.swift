import TouchCore
import TouchProtocol
import TouchSystem

/// Which touches go out as TUIO cursors.
public enum TUIOTouches: String, Sendable, CaseIterable {
    /// Those forwarded to the windows' virtual touchscreens (`forward` in the layout).
    case forwarded
    /// Every touch.
    case all
}

/// Sends touches as TUIO 1.1 cursors (`/tuio/2Dcur` bundles, ``TouchProtocol/TUIOCursors``) in UDP
/// datagrams to each target: positions normalised to each touch's window. One frame per
/// dispatched event that changed a cursor (one bundle, or several of at most 4 KiB when many
/// cursors moved); when the daemon stops, one that says none is down.
///
/// A datagram nobody takes (no listener: `ECONNREFUSED`) is not an error; other failures are
/// reported once per target until a send works again.
public final class TUIOSender: ReportSink {
    private struct Target {
        let address: String
        let fd: Int32
        var failing = false
    }

    private var targets: [Target] = []
    private let touches: TUIOTouches
    private let warn: (String) -> Void
    private var cursors: TUIOCursors
    private var sizes: [ResponderID: Size] = [:]

    /// Opens a socket per target.
    /// - Throws: ``SystemError`` from `socket` or `connect` (the sockets opened so far are closed).
    public init(targets: [InternetSocketAddress], touches: TUIOTouches, source: String = "touchd", warn: @escaping (String) -> Void) throws(SystemError) {
        self.touches = touches
        self.warn = warn
        cursors = TUIOCursors(source: source)
        for address in targets {
            do {
                self.targets.append(Target(address: address.description, fd: try address.connectedDatagram()))
            } catch {
                // Taken from `targets` before closing: `deinit`, which runs when an initializer
                // throws once every property is set, must not close the numbers again.
                let opened = self.targets
                self.targets = []
                for target in opened { Descriptor.close(target.fd) }
                throw error
            }
        }
    }

    deinit { for target in targets { Descriptor.close(target.fd) } }

    public func applicationChanged(_ app: Application) {
        sizes = [:]
        for window in app.tree.windowIDs { sizes[window] = app.tree.windowProperties(of: window)?.size }
    }

    public func deliver(_ report: DispatchReport) {
        var updates: [TUIOCursors.Update] = []
        switch touches {
        case .forwarded:
            updates = self.updates(report.forwarded)
        case .all:
            for touch in report.changedTouches {
                guard let window = touch.window else { continue }
                let phase: TUIOCursors.Update.Phase
                switch touch.phase {
                case .began: phase = .began
                case .moved: phase = .moved
                case .ended, .cancelled: phase = .ended
                case .stationary: continue
                }
                if let update = update(touch.id, phase, touch.locationInWindow, window: window, time: touch.timestamp) { updates.append(update) }
            }
        }
        for bundle in cursors.bundles(for: updates) { send(bundle) }
    }

    public func deliverAhead(_ forwarded: [ForwardedTouch]) {
        // Every touch is reported at its dispatch in the `all` mode.
        guard touches == .forwarded else { return }
        for bundle in cursors.bundles(for: updates(forwarded)) { send(bundle) }
    }

    /// The cursor updates of forwarded touches' steps.
    private func updates(_ forwarded: [ForwardedTouch]) -> [TUIOCursors.Update] {
        var updates: [TUIOCursors.Update] = []
        for touch in forwarded {
            let phase: TUIOCursors.Update.Phase
            switch touch.phase {
            case .began: phase = .began
            case .moved: phase = .moved
            case .ended, .cancelled: phase = .ended
            }
            if let update = update(touch.touch, phase, touch.location, window: touch.window, time: touch.timestamp) { updates.append(update) }
        }
        return updates
    }

    public func stop() {
        if let bundle = cursors.clear() { send(bundle) }
    }

    private func update(_ touch: TouchID, _ phase: TUIOCursors.Update.Phase, _ point: Point, window: ResponderID, time: InputTime) -> TUIOCursors.Update? {
        guard let size = sizes[window], size.width > 0, size.height > 0 else { return nil }
        return TUIOCursors.Update(touch: touch, phase: phase, x: point.x / size.width, y: point.y / size.height, time: time)
    }

    private func send(_ datagram: [UInt8]) {
        for i in targets.indices {
            let fd = targets[i].fd
            let address = targets[i].address
            let result = datagram.withUnsafeBytes { bytes in
                Result { () throws(SystemError) -> SystemCall.Outcome in
                    try SocketIO.send(fd, bytes, address)
                }
            }
            switch result {
            case .success:
                targets[i].failing = false
            case .failure(let error) where error.isConnectionRefused:
                // Nobody listens there now: TUIO's datagrams are for whoever does.
                break
            case .failure(let error):
                if !targets[i].failing { warn("cannot send TUIO to \(address): \(error)") }
                targets[i].failing = true
            }
        }
    }
}
