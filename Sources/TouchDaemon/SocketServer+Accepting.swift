import TouchSystem
import TouchProtocol

/// Accepting connections: each is given its role by the peer policy, or refused with a reason;
/// at most ``ClientLimits/maximumClients`` are served at once, some of the places kept for the
/// control role (`SocketServer+Places.swift`). When the process or the system is
/// out of descriptors, accepting pauses for ``ClientLimits/acceptBackoff`` (the listening socket is
/// not watched meanwhile, so the loop does not spin on a connection it cannot take; waiting
/// clients stay in the kernel's backlog), as swift-nio's accept backoff does.
extension SocketServer {
    /// The most connections accepted in one wakeup: a flood of connections cannot hold the loop
    /// (the rest are accepted at the next wakeup: the listening socket stays readable).
    static let maximumAcceptsPerWakeup = 16

    func acceptClients() {
        var attempts = 0
        while attempts < Self.maximumAcceptsPerWakeup && !acceptPaused {
            attempts += 1
            let accepted: SocketIO.Accepted
            do {
                accepted = try SocketIO.accept(listenFD, path)
            } catch {
                loop.onError(error)
                return
            }
            switch accepted {
            case .connection(let fd): admit(fd)
            case .gaveUp: continue
            case .outOfResources: pauseAccepting()
            case .nothingWaiting: return
            }
        }
    }

    private func admit(_ fd: Int32) {
        let credentials = PeerCredentials.of(socket: fd)
        guard let role = policy.role(of: credentials) else {
            statistics.refused += 1
            return refuse(fd, reason: "not allowed")
        }
        if let reason = admissionRefusal(role: role, credentials: credentials, transport: .unixSocket) { return refuse(fd, reason: reason) }
        connect(fd, credentials: credentials, role: role, transport: .unixSocket)
    }

    /// Why a client with `role` gets no place now (the refusal counted), or `nil` when it may come in.
    func admissionRefusal(role: ClientRole, credentials: PeerCredentials?, transport: ClientTransport) -> String? {
        guard clients.count < limits.maximumClients else {
            statistics.refusedFull += 1
            return "too many clients: at most \(limits.maximumClients) are served at once"
        }
        if let reason = placeRefusal(role: role, quotaKey: ClientConnection.quotaKey(credentials: credentials, transport: transport)) {
            statistics.refusedPlaces += 1
            return reason
        }
        return nil
    }

    /// Serves the connection `fd` (admitted) from now on: greets it and reads what it sent
    /// already (`initialBytes`: what came with a WebSocket handshake).
    func connect(_ fd: Int32, credentials: PeerCredentials?, role: ClientRole, transport: ClientTransport, initialBytes: [UInt8] = []) {
        do {
            try loop.register(fd, for: .readable) { [unowned self] readiness in self.handle(fd: fd, readiness) }
        } catch {
            Descriptor.close(fd)
            return
        }
        let client = ClientConnection(
            fd: fd, serial: nextSerial, credentials: credentials, role: role, transport: transport, maximumLineLength: limits.maximumLineLength)
        nextSerial += 1
        clients[fd] = client
        noteActivity(of: client)
        client.lastHeard = loop.clock.seconds
        statistics.accepted += 1
        if client.isWebSocket { watchWebSocketKeepalive() }
        delegate.clientsChanged()
        deliver(delegate.greeting(for: role), to: client)
        if !initialBytes.isEmpty {
            client.receive(initialBytes)
            schedule(client)
        }
    }

    /// Tells a client that is not let in why, without waiting for it, and closes its connection.
    private func refuse(_ fd: Int32, reason: String) {
        let outbox = ClientOutbox(fd: fd)
        outbox.sendFinal(MessageEncoder.goodbye(reason: reason))
        _ = outbox.flush(final: true)
        Descriptor.close(fd)
    }

    private func pauseAccepting() {
        acceptPaused = true
        statistics.acceptBackoffs += 1
        loop.modify(listenFD, for: [])
        acceptTimer?.schedule(after: limits.acceptBackoff)
    }

    func resumeAccepting() {
        guard acceptPaused else { return }
        acceptPaused = false
        loop.modify(listenFD, for: .readable)
    }
}
