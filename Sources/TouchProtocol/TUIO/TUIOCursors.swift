import TouchCore

/// A TUIO 1.1 tracker's cursors (`/tuio/2Dcur`): what creative tools (TouchDesigner, Unity, Kivy,
/// openFrameworks) read from multi-touch tables. Pure: touches in, OSC bundles out.
///
/// Each call with changes gives one bundle: `source`, `alive` (the session ids of every cursor
/// down, in the order they landed), one `set` per cursor that landed or moved (session id,
/// position and velocity normalised to the window, 0...1 from the top left, and the motion's
/// acceleration), and `fseq` (the frame's number, from 1). A lifted or cancelled cursor leaves
/// `alive`, which is how TUIO says it is gone. A touch's session id is its touch number.
public struct TUIOCursors: Sendable {
    /// One step of a touch, already normalised to its window.
    public struct Update: Hashable, Sendable {
        public enum Phase: Hashable, Sendable { case began, moved, ended }
        public var touch: TouchID
        public var phase: Phase
        /// 0...1 across the window, from its left edge.
        public var x: Double
        /// 0...1 down the window, from its top edge.
        public var y: Double
        /// When the touch was there.
        public var time: InputTime

        public init(touch: TouchID, phase: Phase, x: Double, y: Double, time: InputTime) {
            self.touch = touch
            self.phase = phase
            self.x = x
            self.y = y
            self.time = time
        }
    }

    private struct Cursor {
        var x: Double
        var y: Double
        var velocityX = 0.0
        var velocityY = 0.0
        var acceleration = 0.0
        var time: InputTime
    }

    /// The profile's address.
    public static let address = "/tuio/2Dcur"
    /// Who sends: TUIO 1.1's `source` (`name@host`).
    public let source: String
    private var order: [TouchID] = []
    private var cursors: [TouchID: Cursor] = [:]
    /// The last frame's number.
    public private(set) var frame: Int32 = 0

    public init(source: String = "touchd") { self.source = source }

    /// The cursors down, in the order they landed.
    public var alive: [TouchID] { order }

    /// The bundle for `updates`, or nil when there are none.
    public mutating func bundle(for updates: [Update]) -> [UInt8]? {
        guard !updates.isEmpty else { return nil }
        var set: [TouchID] = []
        for update in updates { apply(update, set: &set) }
        frame = frame == Int32.max ? 1 : frame + 1
        return framed(set)
    }

    /// A bundle that says no cursor is down (the sender stops): nil when none was.
    public mutating func clear() -> [UInt8]? {
        guard !order.isEmpty else { return nil }
        order = []
        cursors = [:]
        frame = frame == Int32.max ? 1 : frame + 1
        return framed([])
    }

    private mutating func apply(_ update: Update, set: inout [TouchID]) {
        let x = Self.unit(update.x)
        let y = Self.unit(update.y)
        switch update.phase {
        case .began:
            guard cursors[update.touch] == nil else { return }
            order.append(update.touch)
            cursors[update.touch] = Cursor(x: x, y: y, time: update.time)
            if !set.contains(update.touch) { set.append(update.touch) }
        case .moved:
            guard var cursor = cursors[update.touch] else { return }
            let dt = (update.time - cursor.time).seconds
            if dt > 0 {
                let vx = (x - cursor.x) / dt
                let vy = (y - cursor.y) / dt
                let speed = (vx * vx + vy * vy).squareRoot()
                let before = (cursor.velocityX * cursor.velocityX + cursor.velocityY * cursor.velocityY).squareRoot()
                cursor.acceleration = (speed - before) / dt
                cursor.velocityX = vx
                cursor.velocityY = vy
            }
            cursor.x = x
            cursor.y = y
            cursor.time = update.time
            cursors[update.touch] = cursor
            if !set.contains(update.touch) { set.append(update.touch) }
        case .ended:
            guard cursors.removeValue(forKey: update.touch) != nil else { return }
            order.removeAll { $0 == update.touch }
            set.removeAll { $0 == update.touch }
        }
    }

    private func framed(_ set: [TouchID]) -> [UInt8] {
        var messages = [OSC.message(Self.address, [.string("source"), .string(source)])]
        messages.append(OSC.message(Self.address, [.string("alive")] + order.map { .int32(Self.session($0)) }))
        for touch in set {
            guard let c = cursors[touch] else { continue }
            messages.append(
                OSC.message(
                    Self.address,
                    [
                        .string("set"), .int32(Self.session(touch)), .float32(Float(c.x)), .float32(Float(c.y)), .float32(Self.float(c.velocityX)),
                        .float32(Self.float(c.velocityY)), .float32(Self.float(c.acceleration)),
                    ]))
        }
        messages.append(OSC.message(Self.address, [.string("fseq"), .int32(frame)]))
        return OSC.bundle(messages)
    }

    /// A touch number as a TUIO session id (an int32; touch numbers beyond it wrap, past 2³¹ touches).
    static func session(_ touch: TouchID) -> Int32 { Int32(truncatingIfNeeded: touch & 0x7fff_ffff) }

    /// `value` within 0...1 (a NaN is 0).
    static func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(1, max(0, value)) }

    /// A finite float (velocities of two samples a microsecond apart can be large, never infinite).
    static func float(_ value: Double) -> Float {
        guard value.isFinite else { return 0 }
        return Float(min(max(value, -1e30), 1e30))
    }
}
