import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout

/// A daemon that gives memory back after reading a layout (at start, on every reload) does what
/// one that keeps it does: the same replies, the same `reload` messages, the same refusals.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MemoryReleaseDaemonTests {
    /// What a client sees of a run of requests: each reply's code and the `reload` messages' view counts.
    private func session(givesMemoryBack: Bool) throws -> (codes: [String?], reloads: [Int], anomalies: [String]) {
        let path = NSTemporaryDirectory() + "touchd-memory-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).toml"
        try ReloadMessageTests.before.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try DaemonHarness(app: try LoadedLayout.load(path: path).app, layoutFile: path, givesMemoryBack: givesMemoryBack)
        let client = try h.connectBare()
        client.send(#"{"id":1,"cmd":"ping"}"#)
        client.send(#"{"id":2,"cmd":"add_view","view":"badge","parent":"home","properties":{"frame":[0,0,5,5]}}"#)
        client.send(#"{"id":3,"cmd":"reload"}"#)
        try h.drain(client)
        // A layout that does not load: refused, the running one stays.
        try "[[window]]\nid = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        client.send(#"{"id":4,"cmd":"reload"}"#)
        try h.drain(client)
        try ReloadMessageTests.before.replacingOccurrences(of: "id = \"old\"", with: "id = \"new\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        client.send(#"{"id":5,"cmd":"reload"}"#)
        client.send(#"{"id":6,"cmd":"ping"}"#)
        try h.drain(client)
        let reloads = client.of(type: "reload").map { $0["views"] as? Int ?? -1 }
        return ((1...6).map { client.code(id: $0) }, reloads, h.observer.anomalies)
    }

    @Test func aDaemonGivingMemoryBackServesAndReloadsAsOneKeepingIt() throws {
        let keeping = try session(givesMemoryBack: false)
        let giving = try session(givesMemoryBack: true)
        #expect(keeping.codes == ["ok", "ok", "ok", giving.codes[3], "ok", "ok"])
        #expect(keeping.codes[3] != "ok")
        #expect(giving.codes == keeping.codes)
        #expect(giving.reloads == keeping.reloads && keeping.reloads == [6, 6], "\(giving.reloads) \(keeping.reloads)")
        #expect(giving.anomalies.isEmpty, "\(giving.anomalies)")
    }
}
