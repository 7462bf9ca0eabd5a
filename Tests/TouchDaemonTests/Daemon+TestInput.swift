import TouchCore
import TouchDaemon

/// Input for tests, through the one door the input sources use (``Daemon/receive(_:)``).
extension Daemon {
    /// Queues an event as an input source reports it; it is dispatched at the end of the loop's
    /// wakeup (or before the next request, timer or removal).
    func enqueue(_ event: QueuedEvent) { receive(.event(event)) }

    /// Queues an event and dispatches everything queued at once, as the end of a wakeup does.
    func receive(_ event: QueuedEvent) {
        enqueue(event)
        dispatchQueued()
    }

    /// Queues a touch frame and dispatches everything queued at once.
    func receive(_ frame: InputFrame) { receive(.touches(frame)) }
}
