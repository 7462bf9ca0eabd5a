import Foundation
import Testing
import TouchCore
import TouchDaemon

/// `docs/limits.md` gives the bounds every socket client meets: its table is the code's.
@Suite(.timeLimit(.minutes(10))) struct ClientLimitsDocumentationTests {
    static func limitsPage() throws -> String {
        try String(contentsOfFile: Binaries.repository + "/docs/limits.md", encoding: .utf8)
    }

    @Test func theClientsTableSaysWhatTheCodeEnforces() throws {
        let page = try Self.limitsPage()
        let defaults = ClientLimits()
        let rows = [
            "| clients connected at once | \(Limits.maximumClients) |",
            "| places of those kept for clients with the control role | \(Limits.reservedControlClients) |",
            "| read-only connections of one user (all peers without credentials count as one) | \(Limits.maximumReadOnlyClientsPerUser) |",
            "| a read-only connection without a subscription, without a request | \(Int(defaults.idleTimeout.seconds)) s |",
            "| request line | \(Limits.maximumRequestLineBytes) bytes |",
            "| request lines served per client per turn of the event loop | \(Limits.maximumRequestsPerTurn) |",
            "| request bytes read per client per turn | \(Limits.maximumRequestBytesPerTurn) |",
            "| unwritten bytes queued for a client | \(Limits.maximumQueuedBytesPerClient) |",
            "| unwritten bytes before a client's requests wait | \(Limits.maximumQueuedBytesPerClient / 2) (half the queue) |",
            "| a reply | \(Limits.maximumReplyBytes) bytes |",
            "\(Limits.maximumHeavyReplyBytesInFlight) unwritten bytes of them for all clients |",
            "| subscriptions per connection | \(Limits.maximumSubscriptionsPerClient) |",
            "| views a connection added and that are still in the tree | \(Limits.maximumViewsPerClient) |",
            "| a disconnected client's last words: time without reading / in all | \(Int(defaults.closingStallTimeout.seconds)) s / \(Int(defaults.maximumClosingTime.seconds)) s |",
            "| pause in accepting when descriptors run out | \(Int(defaults.acceptBackoff.seconds)) s |",
            "| views in a tree (the layout's and those added at run time) | \(Limits.maximumViews) |",
            "| gesture recognizers on a view's hit path (the view and the views above it: a touch on the view is offered to each) | \(Limits.maximumRecognizersOnHitPath) |",
            "| a user or group name in `[daemon]`'s lists and the matching flags | \(Limits.maximumAccountNameBytes) bytes",
            "| unix id | whole numbers from 0 to \(Int(Limits.unixID.range.upperBound)) |",
        ]
        for row in rows { #expect(page.contains(row), "docs/limits.md lacks \(row)") }
        #expect(defaults.maximumClients == Limits.maximumClients && defaults.maximumQueuedBytes == Limits.maximumQueuedBytesPerClient)
        #expect(defaults.reservedControlClients == Limits.reservedControlClients)
    }
}
