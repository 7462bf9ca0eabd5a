/// The event loop's registrations, each with an identity that epoll carries back (`data.u64`):
/// a slot in a table and the slot's generation, which changes whenever the slot is freed. A
/// readiness reported for a registration that has since been removed (its descriptor closed and
/// the number reused, perhaps) names a generation the slot no longer has, and goes nowhere.
///
/// Looking a readiness up is an array access and a comparison: no hashing on the path of every
/// event.
struct RegistrationTable<Handler> {
    private struct Slot {
        var generation: UInt32 = 0
        var handler: Handler?
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// The slot of each registered descriptor (for changing or removing it by number).
    private var slotOfDescriptor: [Int32: Int] = [:]

    /// Registers `fd`; returns the identity to give epoll. `fd` must not be registered already.
    mutating func add(_ fd: Int32, handler: Handler) -> UInt64 {
        let index: Int
        if let reused = freeSlots.popLast() {
            index = reused
        } else {
            index = slots.count
            slots.append(Slot())
        }
        slots[index].handler = handler
        slotOfDescriptor[fd] = index
        return identity(of: index)
    }

    /// The identity under which `fd` is registered, nil when it is not.
    func identity(of fd: Int32) -> UInt64? {
        slotOfDescriptor[fd].map(identity(of:))
    }

    /// Removes `fd`'s registration; returns whether there was one. Its identity is dead from now on.
    mutating func remove(_ fd: Int32) -> Bool {
        guard let index = slotOfDescriptor.removeValue(forKey: fd) else { return false }
        slots[index].handler = nil
        slots[index].generation &+= 1
        freeSlots.append(index)
        return true
    }

    /// The handler of the registration `identity` names, nil when it was removed.
    func handler(for identity: UInt64) -> Handler? {
        let index = Int(truncatingIfNeeded: identity & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].generation == UInt32(truncatingIfNeeded: identity >> 32) else { return nil }
        return slots[index].handler
    }

    private func identity(of index: Int) -> UInt64 {
        UInt64(slots[index].generation) << 32 | UInt64(truncatingIfNeeded: index)
    }
}
