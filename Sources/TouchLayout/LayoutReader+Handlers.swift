import TouchCore
import TouchEvdev

extension HandlerTrigger {
    /// Whether this is one of the four touch methods (`tap_count` applies to those only).
    var isTouch: Bool { Self.touchMethods.contains(self) }

    /// Whether this is one of the press methods (`key` applies to those only).
    var isPress: Bool { self == .pressesBegan || self == .pressesEnded || self == .pressesCancelled }
}

/// `[[handler]]`, read into the core's ``TouchCore/Handler``.
extension LayoutReader {
    static let handlerKeys = [
        "responder", "on", "action", "payload", "pass_on", "tap_count", "selector", "key", "subtype",
        "become_first_responder", "resign_first_responder",
    ]
    static let handlerAliases = [
        "trigger": "on", "event": "on", "method": "on", "passOn": "pass_on", "consume": "pass_on", "keycode": "key",
        "key_code": "key", "command": "subtype", "becomeFirstResponder": "become_first_responder",
        "resignFirstResponder": "resign_first_responder",
    ]

    /// A handler, and its `become_first_responder` and `resign_first_responder` as written (it
    /// keeps one effect; the validator checks both).
    func readHandler(_ fields: Fields) -> (Handler, (become: ResponderID?, resign: ResponderID?)) {
        let responder = reference(
            fields, "responder", required: true, expect: "the id of a window, view, controller, the application or its delegate")
        let triggers = HandlerTrigger.allCases.map { ($0.rawValue, $0) }
        let trigger = fields.choice("on", triggers)
        if !fields.has("on") {
            fields.missing("on", "one of " + triggers.map { quote($0.0) }.joined(separator: ", "))
        }
        let action = fields.identifier("action", required: true, expect: "a non-empty action name")
        var handler = Handler(responder: responder ?? "", trigger: trigger ?? .touchesBegan, action: action ?? "")
        if let payload = fields.values["payload"].flatMap({ payloadValue($0, at: fields.at("payload")) }) {
            handler.payload = payload
        }
        if let passOn = fields.bool("pass_on") { handler.passesOn = passOn }
        handler.tapCount = fields.integer("tap_count", in: Limits.tapCount)
        handler.selector = readSelector(fields, trigger: trigger)
        handler.key = readKeyName(fields, trigger: trigger)
        handler.remoteControl = fields.choice("subtype", RemoteControlSubtype.allCases.map { ($0.rawValue, $0) })
        if let trigger, trigger != .remoteControl, fields.has("subtype") {
            log.add(.conflict, fields.at("subtype"), "subtype only goes with on = \"remote_control\": expected no subtype for on = \(quote(trigger.rawValue))")
        }
        if let trigger, !trigger.isTouch, fields.has("tap_count") {
            log.add(.conflict, fields.at("tap_count"), "tap_count only goes with the touch methods: expected no tap_count for on = \(quote(trigger.rawValue))")
        }
        let become = reference(
            fields, "become_first_responder", expect: "the id of a window, view or controller with can_become_first_responder = true")
        let resign = reference(fields, "resign_first_responder", expect: "the id of a window, view or controller")
        if become != nil && resign != nil {
            log.add(
                .conflict, fields.at("resign_first_responder"),
                "become_first_responder and resign_first_responder are both set: expected at most one of them")
        }
        handler.firstResponderEffect = become.map { .become($0) } ?? resign.map { .resign($0) }
        fields.rejectUnknownKeys(Self.handlerKeys, what: "a [[handler]]", aliases: Self.handlerAliases)
        return (handler, (become, resign))
    }

    /// `selector`: required with `on = "action"`, refused with any other trigger.
    private func readSelector(_ fields: Fields, trigger: HandlerTrigger?) -> String? {
        let selector = fields.identifier("selector", expect: "the name of the control action this handler takes")
        if trigger == .action && selector == nil && !fields.has("selector") {
            fields.missing("selector", "the name of the control action this handler takes (with on = \"action\")")
        } else if let trigger, trigger != .action, selector != nil {
            log.add(
                .conflict, fields.at("selector"),
                "selector only goes with on = \"action\": expected no selector for on = \(quote(trigger.rawValue))")
        }
        return selector
    }

    /// `key`: a kernel key name from the event code table, only with a press trigger.
    private func readKeyName(_ fields: Fields, trigger: HandlerTrigger?) -> String? {
        let expect = "a kernel key name such as \"KEY_ENTER\""
        guard let name = fields.identifier("key", expect: expect) else { return nil }
        if let trigger, !trigger.isPress {
            log.add(.conflict, fields.at("key"), "key only goes with on = \"presses_began\", \"presses_ended\" or \"presses_cancelled\": expected no key for on = \(quote(trigger.rawValue))")
            return nil
        }
        guard EventCodes.code(named: name, type: TouchEvdev.EventType.key) != nil else {
            var message = "\(quote(name)) is not a key name: expected \(expect)"
            let upper = name.uppercased()
            if EventCodes.code(named: upper, type: TouchEvdev.EventType.key) != nil {
                message += "; did you mean \(quote(upper))?"
            } else if EventCodes.code(named: "KEY_" + upper, type: TouchEvdev.EventType.key) != nil {
                message += "; did you mean \(quote("KEY_" + upper))?"
            }
            log.add(.invalidValue, fields.at("key"), message)
            return nil
        }
        return name
    }
}
