import TouchCore

/// A TUIO 1.1 tracker's cursors (`/tuio/2Dcur`): what creative tools (TouchDesigner, Unity, Kivy,
/// openFrameworks) read from multi-touch tables. Pure: touches in, OSC bundles out.
///
/// Each call with changes gives one frame: `source`, `alive` (the session ids of every cursor
/// down, in the order they landed), one `set` per cursor that landed or moved (session id,
/// position and velocity normalised to the window, 0...1 from the top left, and the motion's
/// acceleration), and `fseq` (the frame's number, from 1). A lifted or cancelled cursor leaves
/// `alive`, which is how TUIO says it is gone. A touch's session id is its touch number.
///
/// A frame is one bundle of at most ``maximumBundle`` bytes, what receivers that read 4 KiB
/// datagrams take whole. A frame with more `set`s is split as TUIO 1.1 trackers do: several
/// bundles, each with `source`, the whole `alive` and some of the `set`s, `fseq` in the last only
/// (receivers apply a frame at its `fseq`). A bundle passes the bound only when `source` and
/// `alive` with one `set` do (some 700 cursors down); it never passes what a UDP datagram carries
/// (65,507 bytes) before some 13,000 cursors are down.
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

    /// The most bytes in a bundle, when `source` and `alive` with one `set` fit.
    public static let maximumBundle = 4096

    /// The bundles of the frame for `updates`, in order (`fseq` in the last), or none when there
    /// are no updates.
    public mutating func bundles(for updates: [Update]) -> [[UInt8]] {
        guard !updates.isEmpty else { return [] }
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
        return framed([])[0]
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

    /// The frame's bundles: each `source`, `alive` and as many `set`s as fit, `fseq` in the last.
    private func framed(_ set: [TouchID]) -> [[UInt8]] {
        let head = [
            OSC.message(Self.address, [.string("source"), .string(source)]),
            OSC.message(Self.address, [.string("alive")] + order.map { .int32(Self.session($0)) }),
        ]
        let fseq = OSC.message(Self.address, [.string("fseq"), .int32(frame)])
        // A bundle is 16 bytes of header and time tag, and each element with its 4-byte size.
        let headSize = 16 + head.reduce(0) { $0 + 4 + $1.count }
        var bundles: [[UInt8]] = []
        var sets: [[UInt8]] = []
        var size = headSize + 4 + fseq.count
        for message in set.compactMap(setMessage) {
            if !sets.isEmpty, size + 4 + message.count > Self.maximumBundle {
                bundles.append(OSC.bundle(head + sets))
                sets = []
                size = headSize + 4 + fseq.count
            }
            sets.append(message)
            size += 4 + message.count
        }
        bundles.append(OSC.bundle(head + sets + [fseq]))
        return bundles
    }

    /// The `set` of the cursor of `touch`, when it is down.
    private func setMessage(_ touch: TouchID) -> [UInt8]? {
        guard let c = cursors[touch] else { return nil }
        return OSC.message(
            Self.address,
            [
                .string("set"), .int32(Self.session(touch)), .float32(Float(c.x)), .float32(Float(c.y)), .float32(Self.float(c.velocityX)),
                .float32(Self.float(c.velocityY)), .float32(Self.float(c.acceleration)),
            ])
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
