import Testing
import TouchProtocol

/// `--topics` completes one comma-separated item at a time.
@Suite(.timeLimit(.minutes(10))) struct TopicCompletionTests {
    @Test func anEmptyWordOffersEveryTopic() {
        #expect(Topic.listCompletions("") == Topic.allCases.map(\.rawValue))
    }

    @Test func theLastItemIsCompletedAfterTheOthers() {
        #expect(Topic.listCompletions("hits,ac") == ["hits,actions"])
        #expect(Topic.listCompletions("to") == ["touches"])
        #expect(Topic.listCompletions("hits,m") == ["hits,motion"])
    }

    @Test func topicsAlreadyListedAreNotOfferedAgain() {
        let offered = Topic.listCompletions("hits,actions,")
        #expect(!offered.contains("hits,actions,hits") && !offered.contains("hits,actions,actions"))
        #expect(offered.count == Topic.allCases.count - 2)
        #expect(offered.allSatisfy { $0.hasPrefix("hits,actions,") })
    }

    @Test func anUnknownItemHasNoCompletion() {
        #expect(Topic.listCompletions("hits,xyz").isEmpty)
    }
}
