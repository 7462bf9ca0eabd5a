/// Bytes waiting for a socket: lines are appended at the back and written from the front.
///
/// It keeps its own storage so that queueing a message's line for a client is a bounds check and
/// one copy of the line: every message goes into every subscribed client's queue, and an array's
/// generic appends cost several times the copy itself. The bytes written are given up from the
/// front (``consume(_:)``); their room is reused by moving the rest to the front when the queue
/// would otherwise grow.
public final class ByteQueue {
    /// The queue's fields, behind a pointer the object holds as a constant: the queue is used for
    /// every message to every client, and fields of a class stored directly would have each
    /// access checked for exclusivity at run time, which costs more than the copy.
    private struct Fields {
        var storage: UnsafeMutablePointer<UInt8>
        var capacity: Int
        /// The queued bytes are `storage[head..<tail]`.
        var head = 0
        var tail = 0
    }

    private let fields: UnsafeMutablePointer<Fields>

    public init(capacity: Int = 4096) {
        let capacity = max(capacity, 64)
        fields = .allocate(capacity: 1)
        fields.initialize(to: Fields(storage: .allocate(capacity: capacity), capacity: capacity))
    }

    deinit {
        fields.pointee.storage.deallocate()
        fields.deinitialize(count: 1)
        fields.deallocate()
    }

    /// The room allocated.
    public var capacity: Int { fields.pointee.capacity }

    /// How many bytes are queued.
    public var count: Int { fields.pointee.tail - fields.pointee.head }

    public var isEmpty: Bool { count == 0 }

    /// The queued bytes, as a copy.
    public var bytes: [UInt8] { withQueuedBytes { Array($0) } }

    /// Calls `body` with the queued bytes (valid only during the call).
    public func withQueuedBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let f = fields.pointee
        return try body(UnsafeRawBufferPointer(start: f.storage + f.head, count: f.tail - f.head))
    }

    /// Appends bytes.
    public func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        makeRoom(bytes.count)
        (fields.pointee.storage + fields.pointee.tail).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        fields.pointee.tail += bytes.count
    }

    /// Appends `message`'s line, `{"seq":N,<body>}` and a newline (``OutboundMessage/line(seq:)``).
    public func appendLine(_ message: OutboundMessage, seq: UInt64) { append(message, seq: seq, framing: .line) }

    /// How a message's JSON object is delimited in the stream.
    public enum Framing: Sendable, Hashable {
        /// Followed by a newline (the Unix socket).
        case line
        /// Carried by one WebSocket text frame, without a newline (RFC 6455: a server's frames
        /// are not masked).
        case webSocketText
    }

    /// Appends `message` as `{"seq":N,<body>}`, delimited as `framing` says.
    public func append(_ message: OutboundMessage, seq: UInt64, framing: Framing) {
        let prefix: StaticString = #"{"seq":"#
        let bodyCount = message.bodyCount
        var digits = 1
        var rest = seq / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let objectCount = prefix.utf8CodeUnitCount + digits + (bodyCount > 0 ? 1 + bodyCount : 0) + 1
        makeRoom(10 + objectCount + 1)
        let start = fields.pointee.storage + fields.pointee.tail
        var p = start
        if framing == .webSocketText { p = Self.writeFrameHeader(textPayloadLength: objectCount, at: p) }
        p.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        p += prefix.utf8CodeUnitCount
        var n = seq
        var i = digits
        repeat {
            i -= 1
            p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            n /= 10
        } while i > 0
        p += digits
        if bodyCount > 0 {
            p.pointee = UInt8(ascii: ",")
            p += 1
            message.withBodyBytes { body in
                if let base = body.baseAddress { p.update(from: base, count: bodyCount) }
            }
            p += bodyCount
        }
        p.pointee = UInt8(ascii: "}")
        p += 1
        if framing == .line {
            p.pointee = UInt8(ascii: "\n")
            p += 1
        }
        fields.pointee.tail += p - start
    }

    /// Writes the header of an unfragmented, unmasked text frame of `length` bytes; returns where
    /// the payload starts (at most 10 bytes on).
    private static func writeFrameHeader(textPayloadLength length: Int, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        start[0] = 0x81
        if length < 126 {
            start[1] = UInt8(truncatingIfNeeded: length)
            return start + 2
        }
        if length <= 0xFFFF {
            start[1] = 126
            start[2] = UInt8(truncatingIfNeeded: length >> 8)
            start[3] = UInt8(truncatingIfNeeded: length)
            return start + 4
        }
        start[1] = 127
        let wide = UInt64(truncatingIfNeeded: length)  // a count is never negative
        for (index, shift) in stride(from: 56 as UInt64, through: 0, by: -8).enumerated() {
            start[2 + index] = UInt8(truncatingIfNeeded: wide >> shift)
        }
        return start + 10
    }

    /// Gives up the first `n` queued bytes (they were written).
    public func consume(_ n: Int) {
        precondition(n >= 0 && n <= count, "consuming \(n) of \(count) queued bytes")
        fields.pointee.head += n
        if fields.pointee.head == fields.pointee.tail {
            fields.pointee.head = 0
            fields.pointee.tail = 0
        }
    }

    /// Removes the last `n` queued bytes (lines that will never be sent).
    public func removeLast(_ n: Int) {
        precondition(n >= 0 && n <= count, "removing \(n) of \(count) queued bytes")
        fields.pointee.tail -= n
    }

    /// Empties the queue; without `keepingCapacity`, the room returns to the initial size.
    public func removeAll(keepingCapacity: Bool) {
        fields.pointee.head = 0
        fields.pointee.tail = 0
        if !keepingCapacity && fields.pointee.capacity > 4096 {
            fields.pointee.storage.deallocate()
            fields.pointee.capacity = 4096
            fields.pointee.storage = .allocate(capacity: 4096)
        }
    }

    /// Makes room for `n` more bytes at the back: by moving the queued bytes to the front when
    /// that frees enough and at least half the room, else by growing.
    @inline(__always)
    private func makeRoom(_ n: Int) {
        if fields.pointee.tail + n > fields.pointee.capacity { grow(n) }
    }

    private func grow(_ n: Int) {
        var f = fields.pointee
        let queued = f.tail - f.head
        if f.head > 0 && queued + n <= f.capacity && f.head >= f.capacity / 2 {
            f.storage.update(from: f.storage + f.head, count: queued)
        } else {
            let newCapacity = max(f.capacity * 2, queued + n)
            let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newStorage.update(from: f.storage + f.head, count: queued)
            f.storage.deallocate()
            f.storage = newStorage
            f.capacity = newCapacity
        }
        f.head = 0
        f.tail = queued
        fields.pointee = f
    }
}
