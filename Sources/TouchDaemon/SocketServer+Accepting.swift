import TouchCore
import TouchSystem
import TouchProtocol

/// Accepting connections: each is given its role by the peer policy, or refused with a reason;
/// at most ``ClientLimits/maximumClients`` are served at once, some of the places kept for the
/// control role (`SocketServer+Places.swift`). When the process or the system is
/// out of descriptors, accepting pauses for ``ClientLimits/acceptBackoff`` (``ConnectionAcceptor``).
extension SocketServer {
    /// Starts accepting clients on the endpoint.
    /// - Throws: ``SystemError`` when the loop cannot watch the listening socket.
    public func startAccepting() throws(SystemError) {
        guard acceptor == nil else { return }
        acceptor = try ConnectionAcceptor(
            listening: listenFD, subject: path, loop: loop, backoff: limits.acceptBackoff,
            paused: { [unowned self] error in self.acceptingPaused(error) },
            accepted: { [unowned self] fd in
                self.acceptedConnection()
                self.admit(fd)
            })
    }

    /// Accepting (here or on the WebSocket listener) paused for ``ClientLimits/acceptBackoff``:
    /// out of descriptors (counted, and the first of a run told to the delegate, which logs it:
    /// the waiting clients are not refused, so nothing else would say why they wait), or `accept`
    /// failed (reported).
    func acceptingPaused(_ error: SystemError?) {
        if let error { return loop.onError(error) }
        statistics.acceptBackoffs += 1
        pausesInARow += 1
        guard pausesInARow == 1 else { return }
        let seconds = DecimalText.fixed(limits.acceptBackoff.seconds, decimals: 1)
        delegate.acceptingProblem(
            "out of file descriptors with \(clients.count) clients connected: new connections wait in the backlog "
                + "and accepting is tried again every \(seconds) s (raise the service's LimitNOFILE)")
    }

    /// A listener (here or the WebSocket one) took a connection: a run of pauses is over.
    func acceptedConnection() {
        guard pausesInARow > 0 else { return }
        pausesInARow = 0
        delegate.acceptingProblem(nil)
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
        client.lastHeard = loop.clock.now
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
}
