import TouchCore
import TouchProtocol

extension Daemon {
    func perform(_ request: ResponderRequest) -> RequestResult {
        switch request {
        case .becomeFirstResponder(let responder):
            do {
                if let change = try app.becomeFirstResponder(responder, cause: .request) { server.broadcast(MessageEncoder.message(for: change)) }
                return .success(firstResponderResult(of: responder))
            } catch {
                return .failure(RequestError(error))
            }
        case .resignFirstResponder(let responder):
            do {
                server.broadcast(MessageEncoder.message(for: try app.resignFirstResponder(responder, cause: .request)))
                return .success(firstResponderResult(of: responder))
            } catch {
                return .failure(RequestError(error))
            }
        case .beginReceivingRemoteControl:
            app.beginReceivingRemoteControlEvents()
            return .success(ReplyResult.receivingRemoteControl(app.isReceivingRemoteControlEvents))
        case .endReceivingRemoteControl:
            app.endReceivingRemoteControlEvents()
            return .success(ReplyResult.receivingRemoteControl(app.isReceivingRemoteControlEvents))
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
