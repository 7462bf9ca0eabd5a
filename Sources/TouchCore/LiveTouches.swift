extension Application {
    /// The touches down, with what a touch-down, a frame and a lift ask of them kept up to date as
    /// touches come and go, so that none of them costs more with more touches down: where each
    /// touch is by its contact and by its number, which views of each window have delivered
    /// touches (multiple and exclusive touch), and which touches the last event changed (the only
    /// ones that may not stand still).
    ///
    /// ``entries`` are in no particular order: a finished touch's place goes to the last one, and
    /// ``inBeganOrder`` sorts them when asked. Only a touch's changing parts (phase, location, ...)
    /// may be written in place; its identity, window, view and delivery never change once it is down.
    struct LiveTouches: Sendable {
        private(set) var entries: [LiveTouch] = []
        /// Where each touch is in ``entries``, by contact and by number: kept only while more than
        /// ``scannedAtMost`` touches are down (up to that many, going through them costs less
        /// than keeping the tables, which a touch-down and a lift would change).
        private var byKey: [TouchKey: Int] = [:]
        private var byID: [TouchID: Int] = [:]
        private var isIndexed = false
        /// The delivered touches of each window that has had some, in the order they came (a
        /// window whose touches have all lifted keeps its entry, with a count of 0, while there
        /// are few): a kiosk has a handful of windows, and going through a short list costs less
        /// than hashing a window's name at every touch-down and lift.
        private var delivered: [(window: ResponderID, touches: DeliveredTouches)] = []
        /// Beyond this many windows with entries, a window's entry goes when its last touch lifts.
        static let deliveredWindowsKeptAtMost = 8
        /// The contacts the last touches event updated or began: every other touch down is
        /// stationary, without coalesced samples.
        var unsettled: [TouchKey] = []

        /// Up to this many touches down, a touch is found by going through them from the front:
        /// a frame looks every contact up, and for a handful a list costs less than hashing a key.
        static let scannedAtMost = 16

        var count: Int { entries.count }

        /// Reads or changes the touch at `i` in place.
        subscript(i: Int) -> LiveTouch {
            get { entries[i] }
            _modify { yield &entries[i] }
        }

        /// Where the touch of `key` is, if it is down.
        func index(of key: TouchKey) -> Int? {
            guard isIndexed else {
                for i in entries.indices where entries[i].touch.contact == key.contact && entries[i].touch.device == key.device {
                    return i
                }
                return nil
            }
            return byKey[key]
        }

        /// Where the touch numbered `id` is, if it is down.
        func index(of id: TouchID) -> Int? {
            guard isIndexed else { return entries.firstIndex { $0.touch.id == id } }
            return byID[id]
        }

        /// Whether the touch numbered `id` is down.
        func contains(_ id: TouchID) -> Bool { index(of: id) != nil }

        /// The touches down, in the order they began (touch-number order).
        var inBeganOrder: [Touch] { entries.map(\.touch).sorted { $0.id < $1.id } }

        /// Adds a touch that has just come down, at the end.
        mutating func append(_ entry: LiveTouch) {
            let touch = entry.touch
            if isIndexed {
                byKey[TouchKey(device: touch.device, contact: touch.contact)] = entries.count
                byID[touch.id] = entries.count
            }
            if touch.delivery == .delivered, let window = touch.window, let view = touch.view {
                changeDelivered(of: window) { $0.add(view) }
            }
            entries.append(entry)
            if !isIndexed && entries.count > Self.scannedAtMost { index() }
        }

        /// Builds the tables of where each touch is: more than ``scannedAtMost`` are down.
        private mutating func index() {
            isIndexed = true
            for i in entries.indices {
                byKey[TouchKey(device: entries[i].touch.device, contact: entries[i].touch.contact)] = i
                byID[entries[i].touch.id] = i
            }
        }

        /// Removes the touch at `i`; the last touch takes its place.
        mutating func remove(at i: Int) {
            let touch = entries[i].touch
            if isIndexed {
                byKey[TouchKey(device: touch.device, contact: touch.contact)] = nil
                byID[touch.id] = nil
            }
            if touch.delivery == .delivered, let window = touch.window, let view = touch.view {
                // A window's entry stays when its last touch lifts (it has room for the next
                // touch-down's: a tap would otherwise make it and its table anew).
                changeDelivered(of: window) { $0.remove(view) }
            }
            let last = entries.count - 1
            if i != last {
                entries.swapAt(i, last)
                if isIndexed {
                    let moved = entries[i].touch
                    byKey[TouchKey(device: moved.device, contact: moved.contact)] = i
                    byID[moved.id] = i
                }
            }
            entries.removeLast()
            if isIndexed && entries.count <= Self.scannedAtMost {
                // Few enough to go through again; the tables keep their room.
                isIndexed = false
                byKey.removeAll(keepingCapacity: true)
                byID.removeAll(keepingCapacity: true)
            }
        }

        /// The delivered touches of `window`, if it has had some.
        func deliveredTouches(in window: ResponderID) -> DeliveredTouches? {
            for i in delivered.indices where delivered[i].window == window { return delivered[i].touches }
            return nil
        }

        /// Changes the delivered touches of `window` in place.
        private mutating func changeDelivered(of window: ResponderID, _ change: (inout DeliveredTouches) -> Void) {
            guard let i = delivered.firstIndex(where: { $0.window == window }) else {
                var touches = DeliveredTouches()
                change(&touches)
                delivered.append((window, touches))
                return
            }
            change(&delivered[i].touches)
            if delivered[i].touches.count == 0 && delivered.count > Self.deliveredWindowsKeptAtMost { delivered.remove(at: i) }
        }

        /// Makes the touches the last event changed stand still, without coalesced samples, as
        /// every other touch down does; their sample lists go back to `queue` for its next merges.
        mutating func settle(recyclingInto queue: inout ApplicationEventQueue) {
            for key in unsettled {
                guard let i = index(of: key) else { continue }
                if entries[i].touch.phase != .stationary { entries[i].touch.phase = .stationary }
                if !entries[i].touch.coalescedSamples.isEmpty { queue.recycle(&entries[i].touch.coalescedSamples) }
            }
            unsettled.removeAll(keepingCapacity: true)
        }
    }

    /// The delivered touches of one window: how many, and how many on each view.
    struct DeliveredTouches: Sendable {
        private(set) var count = 0
        /// The views with delivered touches and how many each has: a short list gone through (a
        /// window seldom has more than a few views touched at once, and a name compared costs
        /// less than one hashed), and past ``LiveTouches/scannedAtMost`` views a table, as the
        /// live touches themselves are kept.
        private var listed: [(view: ResponderID, touches: Int)] = []
        private var table: [ResponderID: Int]? = nil

        /// How many delivered touches `view` has.
        func touches(on view: ResponderID) -> Int {
            if let table { return table[view] ?? 0 }
            for i in listed.indices where listed[i].view == view { return listed[i].touches }
            return 0
        }

        /// Whether one of the views with delivered touches satisfies `predicate`.
        func containsView(where predicate: (ResponderID) -> Bool) -> Bool {
            if let table { return table.keys.contains(where: predicate) }
            return listed.contains { predicate($0.view) }
        }

        mutating func add(_ view: ResponderID) {
            count += 1
            if table != nil {
                // The view's entry is found once and changed through its index.
                if let i = table!.index(forKey: view) { table!.values[i] += 1 } else { table![view] = 1 }
                return
            }
            if let i = listed.firstIndex(where: { $0.view == view }) {
                listed[i].touches += 1
            } else if listed.count < LiveTouches.scannedAtMost {
                listed.append((view, 1))
            } else {
                var all = Dictionary(uniqueKeysWithValues: listed.lazy.map { ($0.view, $0.touches) })
                all[view] = 1
                table = all
                listed = []
            }
        }

        mutating func remove(_ view: ResponderID) {
            count -= 1
            if table != nil {
                guard let i = table!.index(forKey: view) else { return }
                if table!.values[i] > 1 { table!.values[i] -= 1 } else { table!.remove(at: i) }
                if table!.isEmpty { table = nil }
                return
            }
            guard let i = listed.firstIndex(where: { $0.view == view }) else { return }
            if listed[i].touches > 1 {
                listed[i].touches -= 1
            } else {
                listed.swapAt(i, listed.count - 1)
                listed.removeLast()
            }
        }
    }

    /// The contacts of one frame seen so far: for a handful, those before it in the frame are
    /// looked through; for more, a set keeps them.
    struct SeenContacts {
        private var set: Set<UInt64>?

        init(capacity: Int) {
            if capacity > LiveTouches.scannedAtMost { set = Set(minimumCapacity: capacity) }
        }

        /// Notes the contact at `k` of `contacts`, those before it noted already; returns whether
        /// none of them has its number.
        mutating func insert(_ k: Int, of contacts: [InputContact]) -> Bool {
            if let inserted = set?.insert(contacts[k].id).inserted { return inserted }
            for j in 0..<k where contacts[j].id == contacts[k].id { return false }
            return true
        }
    }
}
