import TouchCore
import TouchProtocol

/// What must hold of everything one client received (``RequestFuzzing``).
enum ReplyCheck {
    /// The message types of `docs/protocol.md` (`error` answers a request line that is too long).
    static let types: Set<String> = [
        "hello", "error", "hit", "touch", "action", "press", "remote_control", "motion", "first_responder", "device", "gesture",
        "reply", "dropped", "goodbye", "reload", "event", "call", "hit_test", "raw", "recording_ended", "calibration_touch",
        "calibration_sample", "calibration_ended", "touch_frame",
    ]
    /// The error codes of `docs/protocol.md` (``RequestErrorCode``, which a test holds to the document).
    static let errorCodes = Set(RequestErrorCode.allCases.map(\.rawValue))

    static func check(_ client: FuzzClient) throws(FuzzViolation) {
        let messages = client.messages
        guard let hello = messages.first else {
            try require(client.hungUp, "a client that did not hang up got nothing, not even hello")
            return
        }
        let role = client.role
        try require(hello["type"] == .string("hello") && hello["seq"] == .int(1), "the first message is not hello with seq 1: \(hello)")
        try require(hello["role"] == .string(role.rawValue), "hello gives the role \(String(describing: hello["role"])), not \(role.rawValue)")
        var lastSeq: Int64 = 0
        var goodbye = false
        for message in messages {
            guard case .int(let seq) = message["seq"], seq > lastSeq else { throw FuzzViolation("seq does not grow at \(message)") }
            lastSeq = seq
            guard case .string(let type) = message["type"], types.contains(type) else { throw FuzzViolation("an undocumented message: \(message)") }
            if type == "goodbye" { goodbye = true }
        }
        let replies = messages.filter { $0["type"] == .string("reply") }
        let complete = !client.hungUp && !goodbye
        try require(
            complete ? replies.count == client.requests.count : replies.count <= client.requests.count,
            "\(client.requests.count) request lines and \(replies.count) replies (hung up: \(client.hungUp), goodbye: \(goodbye))")
        for (reply, line) in zip(replies, client.requests) { try check(reply, to: line, role: role) }
    }

    private static func check(_ reply: JSONValue, to line: [UInt8], role: ClientRole) throws(FuzzViolation) {
        let (id, parsed) = Request.parse(line)
        let request = String(decoding: line.prefix(300), as: UTF8.self)
        // The id as touchd writes numbers (`5E6` comes back `5000000`, a fraction rounded to 6 decimals).
        let written = (try? JSONReader.read(Array(id.jsonText.utf8))) ?? id
        try require(reply["id"] == written, "the reply \(reply) does not carry the id \(id) of \(request)")
        guard case .bool(let ok) = reply["ok"] else { throw FuzzViolation("a reply without ok: \(reply)") }
        guard !ok else {
            try require(reply["result"] != nil, "a successful reply without a result: \(reply)")
            if case .success(let r) = parsed { try require(role.allows(r.requiredRole), "\(role.rawValue) was allowed \(request)") }
            return
        }
        guard case .string(let code) = reply["error"]?["code"], errorCodes.contains(code),
            case .string(let message) = reply["error"]?["message"], !message.isEmpty
        else { throw FuzzViolation("a refusal without a documented code and a message: \(reply) to \(request)") }
        switch parsed {
        case .failure(let error):
            try require(code == error.code.rawValue, "refused with \(code), but the request parses to \(error.code.rawValue): \(request)")
        case .success(let r) where !role.allows(r.requiredRole): try require(code == RequestErrorCode.forbidden.rawValue, "\(role.rawValue) got \(code), not forbidden: \(request)")
        case .success: break
        }
    }
}
