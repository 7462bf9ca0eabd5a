import TouchCore

/// One message for clients, rendered once and sent to every client whose subscriptions match.
///
/// Each client numbers its own messages: the sequence number is added when the message is written
/// to that client, so a client sees `1, 2, 3, ...` with a gap only where messages were dropped.
///
/// The body's bytes may be shared with other messages: all the messages of one dispatched event are
/// written into one buffer (``MessageBatch``), which they keep alive together.
public struct OutboundMessage: Hashable, Sendable {
    /// The topic, or `nil` for messages every client gets (hello, replies, notices).
    public var topic: Topic?
    /// The views the message is about (hit view and its path, the acting responder...), for filters.
    public var views: [ResponderID] {
        get { viewList.array }
        set { viewList = ViewList(newValue) }
    }
    /// ``views``, kept without an array when there is one (a touch's view): an array would cost an
    /// allocation per message.
    private var viewList: ViewList
    /// The action's name, for action filters.
    public var action: String?
    /// Whether the message may be dropped for a slow client (touch moves may; hits, actions and
    /// replies may not: a client that cannot take them is disconnected instead).
    public var droppable: Bool
    /// The forms of `touch` message (``TouchSampleForm``) this message is right for: ``TouchForms/all``
    /// for every message but a touch whose merged samples each form gives differently.
    public var touchForms: TouchForms = .all
    /// Where the body's bytes are: `storage`'s `range`.
    fileprivate var storage: MessageStorage
    private let range: Range<Int>

    /// The JSON members after `seq`, without braces (`"type":"hit",...`), as UTF-8: the bytes every
    /// client's line copies.
    public var bodyBytes: [UInt8] { withBodyBytes { Array($0) } }

    /// The JSON members after `seq`, without braces: `"type":"hit",...`.
    public var body: String { withBodyBytes { String(decoding: $0, as: UTF8.self) } }

    /// The body's length in bytes.
    public var bodyCount: Int { range.count }

    /// Calls `body` with the body's bytes (valid only during the call).
    public func withBodyBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(rebasing: storage.bytes[range]))
    }

    public init(topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, body: String) {
        var body = body
        let storage = body.withUTF8 { MessageStorage(copying: $0) }
        self.init(
            topic: topic, views: ViewList(views), action: action, droppable: droppable, storage: storage, range: 0..<storage.bytes.count)
    }

    init(
        topic: Topic?, views: ViewList, action: String?, droppable: Bool, touchForms: TouchForms = .all, storage: MessageStorage,
        range: Range<Int>
    ) {
        self.topic = topic
        self.viewList = views
        self.action = action
        self.droppable = droppable
        self.touchForms = touchForms
        self.storage = storage
        self.range = range
    }

    /// Builds a message from a JSON object's members.
    public init(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, members: [(String, JSONValue)]
    ) {
        var batch = MessageBatch(messages: 1)
        batch.add(topic: topic, views: views, action: action, droppable: droppable, members: members)
        self = batch.finish()[0]
    }

    /// Builds a message whose members `body` writes (``JSONWriter/member(_:)`` and a value each).
    public init(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, writing body: (inout JSONWriter) -> Void
    ) {
        var batch = MessageBatch(messages: 1)
        batch.add(topic: topic, views: views, action: action, droppable: droppable, writing: body)
        self = batch.finish()[0]
    }

    /// Whether one of the message's views satisfies `predicate`.
    public func containsView(where predicate: (ResponderID) -> Bool) -> Bool {
        switch viewList {
        case .none: false
        case .one(let view): predicate(view)
        case .many(let views): views.contains(where: predicate)
        }
    }

    /// The line sent to a client: `{"seq":N,<body>}` and a newline, exactly as
    /// ``ByteQueue/appendLine(_:seq:)`` (the one place that frames a message) queues it.
    public func line(seq: UInt64) -> String {
        let queue = ByteQueue(capacity: bodyCount + 32)
        queue.appendLine(self, seq: seq)
        return queue.withQueuedBytes { String(decoding: $0, as: UTF8.self) }
    }

    public static func == (a: OutboundMessage, b: OutboundMessage) -> Bool {
        a.topic == b.topic && a.views == b.views && a.action == b.action && a.droppable == b.droppable && a.touchForms == b.touchForms
            && a.withBodyBytes { x in b.withBodyBytes { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(topic)
        hasher.combine(views)
        hasher.combine(action)
        hasher.combine(droppable)
        hasher.combine(touchForms)
        withBodyBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// A message's views: none, one, or a list.
enum ViewList: Sendable {
    case none
    case one(ResponderID)
    case many([ResponderID])

    init(_ views: [ResponderID]) {
        switch views.count {
        case 0: self = .none
        case 1: self = .one(views[0])
        default: self = .many(views)
        }
    }

    init(_ view: ResponderID?) { self = view.map { .one($0) } ?? .none }

    var array: [ResponderID] {
        switch self {
        case .none: []
        case .one(let view): [view]
        case .many(let views): views
        }
    }
}

/// Bytes written and then only read, shared by the messages whose bodies they hold. A batch that
/// keeps its storage gives it the next buffer written only once no message refers to it any more
/// (``MessageBatch/take()``).
final class MessageStorage: @unchecked Sendable {
    // Written, and exchanged for a writer's buffer, only while nothing else refers to it: safe to
    // share between threads.
    private(set) var bytes: UnsafeMutableBufferPointer<UInt8>

    /// Storage holding `source`, with room for `capacity` bytes in all.
    init(copying source: UnsafeBufferPointer<UInt8>, capacity: Int = 0) {
        let room = UnsafeMutablePointer<UInt8>.allocate(capacity: max(source.count, capacity, 1))
        bytes = UnsafeMutableBufferPointer(start: room, count: max(source.count, capacity))
        if let from = source.baseAddress { room.update(from: from, count: source.count) }
    }

    deinit { bytes.deallocate() }

    /// Takes `writer`'s buffer, with the text written in it, and gives the writer this storage's
    /// buffer in exchange, empty: the text changes hands without a copy. Only while no message
    /// refers to the storage.
    func exchangeBuffer(with writer: inout JSONWriter) {
        bytes = writer.exchangeBuffer(for: bytes)
    }

    /// What messages of a batch point to until the batch is finished.
    static let empty = MessageStorage(copying: UnsafeBufferPointer(start: nil, count: 0))
}

/// Messages written one after another into one buffer: the messages of one dispatched event cost
/// one allocation for all their bodies, however many there are.
///
/// A batch kept from one event to the next (``take()``, then ``removeAll()`` or more messages) costs
/// none once warm: it writes into one of two buffers, lists the messages in the same array, and
/// gives the buffer written to the storage of the messages it gives, taking that storage's last
/// buffer to write the next ones in, when none of the messages it gave last is left.
public struct MessageBatch: ~Copyable {
    private var writer: JSONWriter
    /// The messages so far, their bodies' places in `writer` set, their storage not yet.
    private var messages: [OutboundMessage] = []
    /// The storage of the messages ``take()`` gave last, kept to be written again.
    private var storage: MessageStorage?
    /// Whether ``take()`` gave the messages listed: the next message added starts a new list.
    private var taken = false
    /// The places (window, view, path) of the hit messages written so far, by hit view.
    var hitPlaces = HitPlaces()
    /// What the `input` form's messages of each touch repeat, kept for its next one.
    var touchTexts = TouchTexts()

    /// A batch with room for about `messages` messages of ordinary size.
    public init(messages: Int = 8) {
        writer = JSONWriter(capacity: 512 * max(messages, 1))
        self.messages.reserveCapacity(messages)
    }

    /// Adds a message whose members `body` writes (``JSONWriter/member(_:)`` and a value each).
    public mutating func add(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, touchForms: TouchForms = .all,
        writing body: (inout JSONWriter) -> Void
    ) {
        add(topic: topic, viewList: ViewList(views), action: action, droppable: droppable, touchForms: touchForms, writing: body)
    }

    /// Adds a message about one view (or none) whose members `body` writes, right for the `touch`
    /// message forms `touchForms`.
    public mutating func add(
        topic: Topic?, view: ResponderID?, action: String? = nil, droppable: Bool, touchForms: TouchForms = .all,
        writing body: (inout JSONWriter) -> Void
    ) {
        add(topic: topic, viewList: ViewList(view), action: action, droppable: droppable, touchForms: touchForms, writing: body)
    }

    private mutating func add(
        topic: Topic?, viewList: ViewList, action: String?, droppable: Bool, touchForms: TouchForms = .all,
        writing body: (inout JSONWriter) -> Void
    ) {
        if taken { removeAll() }
        let start = writer.byteCount
        writer.beginMembers()
        body(&writer)
        // Made in place in the list (a message made first and appended was copied twice).
        messages.append(
            OutboundMessage(
                topic: topic, views: viewList, action: action, droppable: droppable, touchForms: touchForms, storage: .empty,
                range: start..<writer.byteCount))
    }

    /// Adds a message made of a JSON object's members.
    public mutating func add(
        topic: Topic?, views: [ResponderID] = [], action: String? = nil, droppable: Bool, members: [(String, JSONValue)]
    ) {
        add(topic: topic, views: views, action: action, droppable: droppable) { writer in
            for (key, value) in members {
                writer.member(escaping: key)
                writer.value(value)
            }
        }
    }

    /// Empties the batch for another event's messages, keeping its room.
    public mutating func removeAll() {
        writer.removeAll()
        messages.removeAll(keepingCapacity: true)
        taken = false
    }

    /// The messages so far, in the order they were added; the next message added (or
    /// ``removeAll()``) starts a new list. Their bodies go into the storage of the messages it gave
    /// last if none of those is left, which takes the buffer they were written in (and gives its
    /// own for the next messages), else into new storage with the writer's room.
    public mutating func take() -> [OutboundMessage] {
        if taken { return messages }
        taken = true
        let target: MessageStorage
        if isKnownUniquelyReferenced(&storage), let kept = storage {
            kept.exchangeBuffer(with: &writer)
            target = kept
        } else {
            let capacity = writer.capacity
            target = writer.withBytes { MessageStorage(copying: $0, capacity: capacity) }
            storage = target
            writer.removeAll()
        }
        for i in messages.indices { messages[i].storage = target }
        return messages
    }

    /// The messages, in the order they were added (those ``take()`` gave, when nothing was added
    /// since).
    public consuming func finish() -> [OutboundMessage] {
        if taken { return messages }
        let storage = writer.withBytes { MessageStorage(copying: $0) }
        for i in messages.indices { messages[i].storage = storage }
        return messages
    }
}
