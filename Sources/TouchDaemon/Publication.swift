import TouchCore
import TouchProtocol

/// How the daemon turns what it dispatched into messages: what the clients' subscriptions want
/// together (nothing else is encoded), the samples of waiting moves already sent at the input's
/// rate, and the batch every dispatched event's messages are written in, kept warm from one event
/// to the next.
struct Publication: ~Copyable {
    /// What the clients' subscriptions want together (``Daemon/updateDiagnostics()``).
    var interest = MessageInterest([])
    /// The samples of the moves waiting for their display tick already sent at the input's rate.
    private(set) var inputRateMarks = InputRateMarks()
    private var batch = MessageBatch()

    /// A dispatched event's messages, `hitsSent` when its hits went out already: the batch's
    /// until the next event's.
    mutating func messages(for report: DispatchReport, hitsSent: Bool) -> [OutboundMessage] {
        MessageEncoder.messages(for: report, interest: interest, hitsSent: hitsSent, marks: &inputRateMarks, batch: &batch)
    }

    /// A touch-down frame's `hit` messages (and `hit_test` traces), sent ahead of the rest: the
    /// batch's until the next event's.
    mutating func hitMessages(_ hits: [HitRecord]) -> [OutboundMessage] {
        MessageEncoder.hitMessages(hits, interest: interest, batch: &batch)
    }

    /// Lets go of the batch's messages, keeping its room: called once they are queued for the
    /// clients, so that the next touch-down's hits are written without first clearing the last
    /// event's messages (a release for each and its views).
    mutating func releaseMessages() {
        batch.removeAll()
    }

    /// The input-rate messages (the `input` and `frames` forms its clients want) of the waiting
    /// moves' new samples; they are marked sent. The batch's until its next use
    /// (``releaseMessages()`` once they are queued).
    mutating func arrivalMessages(of moves: [[WaitingTouchSamples]]) -> [OutboundMessage] {
        MessageEncoder.arrivalMessages(of: moves, forms: interest.touchForms, marks: &inputRateMarks, batch: &batch)
    }
}

/// The layout's reloads: the state the last one loaded, and how many were accepted or refused.
struct ReloadHistory {
    /// The layout's state as loaded (at start or by the last reload): what the `reload` message
    /// compares the running tree with to tell the run-time changes a reload drops.
    var baseline: TreeState
    /// Reloads that replaced the layout.
    var accepted = 0
    /// Reloads refused (the file unreadable or invalid): the running layout stayed.
    var refused = 0
}
