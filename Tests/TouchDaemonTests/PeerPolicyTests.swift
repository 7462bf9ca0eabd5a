import TouchSystem
import Testing
import TouchDaemon

@Suite(.timeLimit(.minutes(10))) struct PeerPolicyTests {
    @Test func anEmptyPolicyLeavesItToTheFileMode() {
        #expect(PeerPolicy().allows(nil))
        #expect(PeerPolicy().allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000)))
    }

    @Test func listedUsersAndGroupsAndRootAreAllowedOthersAreNot() {
        let policy = PeerPolicy(allowedUIDs: [1001], allowedGIDs: [50], daemonUID: 500)
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 1001, gid: 9)))
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 7, gid: 50)))
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)), "root is always allowed")
        #expect(!policy.allows(PeerCredentials(pid: 1, uid: 1002, gid: 1002)))
        #expect(!policy.allows(nil), "unknown credentials are refused when a list is set")
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 7, gid: 9, supplementaryGIDs: [3, 50])), "a supplementary group counts")
        #expect(!policy.allows(PeerCredentials(pid: 1, uid: 7, gid: 9, supplementaryGIDs: [3, 51])))
    }
}
