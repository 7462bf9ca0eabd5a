import TouchProtocol

/// What the daemon a ``SocketServer`` serves does for it: the first message of each connection,
/// the answer to each request line, and word of clients coming and going. Given to the server at
/// construction; the server holds it unowned (the daemon owns its server).
public protocol SocketServerDelegate: AnyObject {
    /// The first message of a connection with `role`.
    func greeting(for role: ClientRole) -> OutboundMessage
    /// The answer to one request line of `client` (its bytes, without the newline).
    func answer(_ line: [UInt8], from client: SocketServer.ClientHandle) -> RequestAnswer
    /// A client connected or went away.
    func clientsChanged()
    /// `client`'s connection ended (not at shutdown), told after the wakeup's work: what it owned
    /// can be let go.
    func clientLeft(_ client: SocketServer.ClientHandle)
    /// Accepting paused because the process ran out of descriptors (`text` says so, once for a
    /// run of pauses), or (`nil`) it took a connection again after such a run.
    func acceptingProblem(_ text: String?)
}
