import TouchCore
import TouchProtocol

/// The requests about who receives events without touches: moving a window's first responder,
/// and whether the application receives remote-control events.
enum ResponderRequest {
    case become(ResponderID)
    case resign(ResponderID)
    case receiveRemoteControl(Bool)
}

extension Daemon {
    func perform(_ request: ResponderRequest) -> RequestResult {
        switch request {
        case .become(let responder):
            do {
                if let change = try app.becomeFirstResponder(responder, cause: .request) { server.broadcast(MessageEncoder.message(for: change)) }
                return .success(firstResponderResult(of: responder))
            } catch {
                return .failure(RequestError(error))
            }
        case .resign(let responder):
            do {
                server.broadcast(MessageEncoder.message(for: try app.resignFirstResponder(responder, cause: .request)))
                return .success(firstResponderResult(of: responder))
            } catch {
                return .failure(RequestError(error))
            }
        case .receiveRemoteControl(let receives):
            if receives { app.beginReceivingRemoteControlEvents() } else { app.endReceivingRemoteControlEvents() }
            return .success(.object([("receiving", .bool(app.isReceivingRemoteControlEvents))]))
        }
    }

    /// `{"window": ..., "first_responder": ...}` for the window of `responder` after a change.
    private func firstResponderResult(of responder: ResponderID) -> JSONValue {
        let window =
            app.tree.kind(of: responder) == .controller
            ? app.tree.controllerProperties(of: responder).flatMap { app.tree.window(of: $0.view) } : app.tree.window(of: responder)
        let current = window.flatMap { app.firstResponder(of: $0) }
        return ReplyResult.firstResponder(window: window, current: current)
    }
}
