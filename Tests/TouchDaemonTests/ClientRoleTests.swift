import TouchSystem
import Foundation
import Testing
import TouchCore
import TouchDaemon
import TouchLayout
import TouchProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Least privilege on the socket: a read-only role that watches, a control role that changes, each
/// chosen from the peer's real credentials when it connects.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClientRoleTests {
    @Test func eachRequestNeedsItsRole() {
        let readOnly: [Request] = [
            .session(.ping), .session(.subscribe(topics: [.hits], views: nil, actions: nil)), .session(.unsubscribe(subscription: 1)),
            .tree(.hitTest(point: Point(x: 0, y: 0), window: nil)), .tree(.views), .tree(.snapshot(window: nil, heatmap: false)),
            .daemon(.devices), .daemon(.stats),
        ]
        let control: [Request] = [
            .tree(.set(view: "v", changes: ViewChanges())), .tree(.addView(view: "v", parent: "p", changes: ViewChanges())),
            .tree(.removeView(view: "v")), .daemon(.reload), .responders(.becomeFirstResponder(responder: "r")),
            .responders(.resignFirstResponder(responder: "r")), .deviceSession(.record(device: nil)),
            .deviceSession(.stopRecording(device: "d")), .deviceSession(.calibrate(device: nil, targets: nil)),
            .deviceSession(.calibrationPoint(sample: 1, target: 0)), .deviceSession(.finishCalibration), .deviceSession(.cancelCalibration),
        ]
        for request in readOnly {
            #expect(request.requiredRole == .readOnly, "\(request.command)")
            #expect(ClientRole.readOnly.allows(request.requiredRole))
        }
        for request in control {
            #expect(request.requiredRole == .control, "\(request.command)")
            #expect(!ClientRole.readOnly.allows(request.requiredRole), "\(request.command)")
            #expect(ClientRole.control.allows(request.requiredRole))
        }
        #expect(Set((readOnly + control).map(\.command)).count == 20, "every command has its role")
    }

    @Test func thePolicyGivesControlToRootTheDaemonAndListedAccountsOnly() {
        let open = PeerPolicy(daemonUID: 500)
        #expect(open.role(of: PeerCredentials(pid: 1, uid: 0, gid: 0)) == .control, "root")
        #expect(open.role(of: PeerCredentials(pid: 1, uid: 500, gid: 77)) == .control, "the daemon's own user")
        #expect(open.role(of: PeerCredentials(pid: 1, uid: 1000, gid: 1000)) == .readOnly, "anyone the mode lets in watches")
        #expect(open.role(of: nil) == .readOnly, "unknown credentials: read-only at most")

        let listed = PeerPolicy(allowedUIDs: [1001], allowedGIDs: [50], controlUIDs: [1002], controlGIDs: [60], daemonUID: 500)
        #expect(listed.role(of: PeerCredentials(pid: 1, uid: 1001, gid: 9)) == .readOnly)
        #expect(listed.role(of: PeerCredentials(pid: 1, uid: 7, gid: 50)) == .readOnly)
        #expect(listed.role(of: PeerCredentials(pid: 1, uid: 1002, gid: 9)) == .control, "a control user need not be in the allow lists")
        #expect(listed.role(of: PeerCredentials(pid: 1, uid: 7, gid: 9, supplementaryGIDs: [60])) == .control, "a supplementary group")
        #expect(listed.role(of: PeerCredentials(pid: 1, uid: 7, gid: 9)) == nil)
        #expect(listed.role(of: nil) == nil)
        #expect(listed.role(of: PeerCredentials(pid: 1, uid: 0, gid: 0)) == .control)
    }

    @Test func accountsAreNamesOrIdsInTheirDomains() throws {
        #expect(AccountRef(parsing: "1000") == .id(1000))
        #expect(AccountRef(parsing: "0") == .id(0))
        #expect(AccountRef(parsing: "4294967295") == .id(4_294_967_295))
        #expect(AccountRef(parsing: "kiosk-admin") == .name("kiosk-admin"))
        for bad in ["", "4294967296", "99999999999", "12ab", "a b", "a,b", "a:b", String(repeating: "n", count: 33)] {
            #expect(AccountRef(parsing: bad) == nil, "\(bad)")
        }
        let document = try LayoutLoader.parse(
            "[[window]]\nid = \"w\"\nsize = [1, 1]\n[daemon]\nallow_users = [1000, \"kiosk\"]\nallow_groups = [\"video\"]\n"
                + "control_users = [\"admin\", 0]\ncontrol_groups = [4242]\n",
            file: "d.toml")
        #expect(document.daemon.allowUsers == [.id(1000), .name("kiosk")])
        #expect(document.daemon.allowGroups == [.name("video")])
        #expect(document.daemon.controlUsers == [.name("admin"), .id(0)])
        #expect(document.daemon.controlGroups == [.id(4242)])
        #expect {
            _ = try LayoutLoader.parse(
                "[[window]]\nid = \"w\"\nsize = [1, 1]\n[daemon]\ncontrol_users = [-1, \"a b\"]\ncontrol_groups = 5\n", file: "d.toml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("d.toml:5:18: daemon.control_users[0]") && text.contains("daemon.control_users[1]")
                && text.contains("a name of 1 to 32 bytes or a numeric id")
                && text.contains("daemon.control_groups") && text.contains("an array of names or ids")
        }
    }

    @Test func namesAreLookedUpAndAnUnknownNameIsAnError() throws {
        let policy = try PeerPolicy.resolving(
            allowUsers: ([.name("root"), .id(7)], "--allow-users"), allowGroups: ([], "[daemon] allow_groups"),
            controlUsers: ([], "[daemon] control_users"), controlGroups: ([.name("root")], "--control-groups"))
        #expect(policy.allowedUIDs == [0, 7])
        #expect(policy.controlGIDs == [0])
        #expect(throws: AccountLookupError.self) {
            _ = try PeerPolicy.resolving(
                allowUsers: ([], ""), allowGroups: ([], ""), controlUsers: ([.name("no-such-user-here")], "--control-users"),
                controlGroups: ([], ""))
        }
        do {
            _ = try PeerPolicy.resolving(
                allowUsers: ([], ""), allowGroups: ([], ""), controlUsers: ([], ""), controlGroups: ([.name("no-such-group-here")], "[daemon] control_groups"))
        } catch {
            #expect(error.description == "[daemon] control_groups: no group named \"no-such-group-here\"")
        }
    }

    /// The hello's role for a client of this process, under `policy`; `nil` when it is refused.
    func greetedRole(_ policy: PeerPolicy) throws -> String? {
        let h = try DaemonHarness(app: kioskApp(), policy: policy)
        let c = try h.connectBare()
        try h.drain(c)
        if c.of(type: "hello").isEmpty {
            #expect(c.of(type: "goodbye").first?["reason"] as? String == "not allowed")
            #expect(c.closed)
        }
        return c.of(type: "hello").first?["role"] as? String
    }

    @Test func theTestProcessGetsTheRoleItsOwnCredentialsGive() throws {
        let uid = geteuid()
        let gid = getegid()
        // The daemon's own user always has control: in-process, that is this process.
        #expect(try greetedRole(PeerPolicy()) == "control")
        // A daemon that runs as someone else.
        let other: UInt32 = uid == 4242 ? 4243 : 4242
        if uid == 0 {
            #expect(try greetedRole(PeerPolicy(allowedUIDs: [other], daemonUID: other)) == "control", "root always has control")
            return
        }
        #expect(try greetedRole(PeerPolicy(daemonUID: other)) == "read_only")
        #expect(try greetedRole(PeerPolicy(controlUIDs: [uid], daemonUID: other)) == "control")
        #expect(try greetedRole(PeerPolicy(controlGIDs: [gid], daemonUID: other)) == "control")
        #expect(try greetedRole(PeerPolicy(allowedUIDs: [uid], daemonUID: other)) == "read_only")
        #expect(try greetedRole(PeerPolicy(allowedUIDs: [other], daemonUID: other)) == nil)
        // Read-only over the real socket: watching works, changing is forbidden and changes nothing.
        let h = try DaemonHarness(app: kioskApp(), policy: PeerPolicy(daemonUID: other))
        let c = try h.connect(topics: ["hits"])
        c.send(#"{"id":1,"cmd":"set","view":"home.ok","properties":{"hidden":true}}"#)
        c.send(#"{"id":2,"cmd":"hit_test","x":150,"y":150}"#)
        c.send(#"{"id":3,"cmd":"reload"}"#)
        c.send(#"{"id":4,"cmd":"stats"}"#)
        try h.drain(c)
        #expect(c.code(id: 0) == "ok" && c.code(id: 2) == "ok" && c.code(id: 4) == "ok")
        #expect(c.code(id: 1) == "forbidden" && c.code(id: 3) == "forbidden")
        let message = (c.reply(id: 1)?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("\"set\" needs the control role") && message.contains("read_only"), "\(message)")
        #expect((c.reply(id: 2)?["result"] as? [String: Any])?["view"] as? String == "home.ok", "the view was not hidden")
    }
}

/// The roles with the real binaries: `touchctl` run as another user (`setpriv`, which needs root).
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClientRoleProcessTests {
    /// Runs touchd on the kiosk layout with a socket anyone may open, and `body` with its socket.
    func withDaemon(_ flags: [String], _ body: (String) throws -> Void) throws {
        let socket = temporaryPath("roles") + ".sock"
        let layout = temporaryPath("roles") + ".toml"
        let text = try String(contentsOfFile: DaemonProcessTests.kiosk, encoding: .utf8) + "\n[daemon]\nsocket_mode = \"0666\"\n"
        try text.write(toFile: layout, atomically: true, encoding: .utf8)
        defer { unlink(layout) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.touchd)
        process.arguments = ["--config", layout, "--socket", socket, "--no-devices"] + flags
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        var st = stat()
        for _ in 0..<100 where stat(socket, &st) != 0 { usleep(50_000) }
        try body(socket)
    }

    /// `touchctl ARGS` as user and group 65534 (nobody), with `groups` as its supplementary groups.
    func asNobody(groups: [UInt32] = [], _ arguments: [String]) throws -> ProcessResult {
        let groupOption = groups.isEmpty ? "--clear-groups" : "--groups=\(groups.map(String.init).joined(separator: ","))"
        return try runToEnd(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", groupOption, Binaries.touchctl] + arguments, mergingErrors: true, timeout: 20)
    }

    @Test func aReadOnlyUserWatchesAndIsForbiddenToChange() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            // Without root, ClientRoleTests checks the roles with this process's own credentials.
            return
        }
        try withDaemon([]) { socket in
            let ping = try asNobody(["ping", "--socket", socket])
            #expect(ping.status == 0 && ping.stdout.contains("pong"), "\(ping)")
            let stats = try asNobody(["stats", "--socket", socket])
            #expect(stats.status == 0 && stats.stdout.contains("frames_in"), "\(stats)")
            let hit = try asNobody(["hit-test", "--socket", socket, "640", "400"])
            #expect(hit.status == 0, "\(hit)")
            let set = try asNobody(["set", "--socket", socket, "home.root", "hidden=true"])
            #expect(set.status == 1, "\(set)")
            #expect(set.stdout.contains("forbidden: \"set\" needs the control role; this connection (uid 65534, gid 65534"), "\(set)")
            #expect(set.stdout.contains("has the read_only role"), "\(set)")
            let reload = try asNobody(["reload", "--socket", socket])
            #expect(reload.status == 1 && reload.stdout.contains("forbidden"), "\(reload)")
            let focus = try asNobody(["first-responder", "--socket", socket, "home.root"])
            #expect(focus.status == 1 && focus.stdout.contains("forbidden"), "\(focus)")
            // Root (this process) has control.
            let rootSet = try runToEnd(Binaries.touchctl, ["set", "--socket", socket, "home.root", "hidden=false"], mergingErrors: true, timeout: 20)
            #expect(rootSet.status == 0, "\(rootSet)")
        }
    }

    @Test func controlListsByNameOrGroupGiveControl() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        try withDaemon(["--control-users", "nobody"]) { socket in
            let set = try asNobody(["set", "--socket", socket, "home.root", "hidden=false"])
            #expect(set.status == 0, "a control user, named: \(set)")
        }
        try withDaemon(["--control-groups", "4242", "--allow-groups", "4241"]) { socket in
            let member = try asNobody(groups: [4242], ["set", "--socket", socket, "home.root", "hidden=false"])
            #expect(member.status == 0, "a member of a control group, not in the allow list: \(member)")
            let watcher = try asNobody(groups: [4241], ["set", "--socket", socket, "home.root", "hidden=false"])
            #expect(watcher.status == 1 && watcher.stdout.contains("forbidden"), "\(watcher)")
            let outsider = try asNobody(groups: [4240], ["ping", "--socket", socket])
            #expect(outsider.status != 0 && !outsider.stdout.contains("pong"), "\(outsider)")
        }
        let unknown = try runToEnd(
            Binaries.touchd, ["--config", DaemonProcessTests.kiosk, "--socket", temporaryPath("x"), "--no-devices", "--control-users", "no-such-user-here"],
            mergingErrors: true, timeout: 20)
        #expect(unknown.status != 0 && unknown.stdout.contains("--control-users: no user named \"no-such-user-here\""), "\(unknown)")
    }
}
