import Testing
import TouchCore
import TouchEvdev
import TouchProtocol

/// The messages about connections, devices and replies, each from its one function in the
/// protocol module, with the text `docs/protocol.md` shows.
@Suite(.timeLimit(.minutes(10))) struct ConnectionMessageTests {
    @Test func noticesReadAsDocumented() {
        #expect(MessageEncoder.goodbye(reason: "not allowed").line(seq: 1) == #"{"seq":1,"type":"goodbye","reason":"not allowed"}"# + "\n")
        #expect(
            MessageEncoder.dropped(count: 180, firstSeq: 1020, lastSeq: 1206).line(seq: 1207)
                == #"{"seq":1207,"type":"dropped","count":180,"first_seq":1020,"last_seq":1206}"# + "\n")
        #expect(
            MessageEncoder.lineTooLong(maximumLineLength: 65536).line(seq: 2)
                == #"{"seq":2,"type":"error","error":{"code":"line_too_long","message":"request lines are limited to 65536 bytes"}}"# + "\n")
        for message in [MessageEncoder.goodbye(reason: "x"), MessageEncoder.dropped(count: 1, firstSeq: 1, lastSeq: 1), MessageEncoder.lineTooLong(maximumLineLength: 1)] {
            #expect(message.topic == nil && !message.droppable, "every client gets them, and none is dropped")
        }
    }

    /// A device named `name`, classified by the udev property `udev`, on `node` (nil: a recording).
    static func device(_ name: String, udev property: String, node: String?) -> DeviceFacts {
        let description = DeviceDescription(name: name)
        guard let node else { return DeviceFacts(description: description, origin: .recording(udevProperties: [property: "1"])) }
        return DeviceFacts(description: description, origin: .node(UdevInputDevice(syspath: "", devnode: node, properties: [property: "1"]), physicalPath: nil))
    }

    @Test func deviceMessagesCarryTheirDescription() {
        let pad = DeviceListing(
            Self.device("Pad \"7\"", udev: "ID_INPUT_TOUCHSCREEN", node: "/dev/input/event5"),
            use: .used(id: "usb-1/1234:0001/pad", matched: "device[0] → window main", grabbed: true))
        let added = MessageEncoder.deviceAdded(id: "usb-1/1234:0001/pad", description: pad)
        #expect(
            added.line(seq: 9)
                == #"{"seq":9,"type":"device","event":"added","device":"usb-1/1234:0001/pad","description":{"devnode":"/dev/input/event5","name":"Pad \"7\"","kind":"touchscreen","matched":"device[0] → window main"}}"#
                + "\n", "announced without its identity (the message has it) and its grab")
        #expect(MessageEncoder.deviceAdded(id: "x", description: pad, alreadyPresent: true).body.hasSuffix(#","already_present":true"#))
        #expect(MessageEncoder.deviceRemoved(id: "a\"b").line(seq: 12) == #"{"seq":12,"type":"device","event":"removed","device":"a\"b"}"# + "\n")
        #expect(added.topic == .devices && !added.droppable)
    }

    @Test func theDevicesReplyListsDevicesInUseIgnoredAndRecorded() {
        let used = DeviceListing(
            Self.device("Pad", udev: "ID_INPUT_TOUCHSCREEN", node: "/dev/input/event5"),
            use: .used(id: "pad", matched: "device[0] → window main", grabbed: false))
        let ignored = DeviceListing(Self.device("Keys", udev: "ID_INPUT_KEY", node: "/dev/input/event2"), use: .ignored(reason: "no entry matched"))
        let recording = DeviceListing(
            Self.device("Rec", udev: "ID_INPUT_TOUCHPAD", node: nil), use: .used(id: "replay:Rec", matched: "mapped onto window w", grabbed: nil))
        #expect(used.id == "pad" && ignored.id == nil && recording.id == "replay:Rec")
        #expect(
            ReplyResult.devices([used, ignored, recording]).jsonText
                == #"[{"device":"pad","devnode":"/dev/input/event5","name":"Pad","kind":"touchscreen","matched":"device[0] → window main","grabbed":false},"#
                + #"{"devnode":"/dev/input/event2","name":"Keys","kind":"keys","ignored":"no entry matched"},"#
                + #"{"device":"replay:Rec","name":"Rec","kind":"touchpad","matched":"mapped onto window w","source":"recording"}]"#)
        #expect(recording.announced.jsonText == #"{"name":"Rec","kind":"touchpad","matched":"mapped onto window w","source":"recording"}"#)
    }

    @Test func replyResults() {
        #expect(Reply.ok(.int(1), ReplyResult.pong).body == #""type":"reply","id":1,"ok":true,"result":{"pong":true}"#)
        #expect(ReplyResult.done.jsonText == "{}")
        #expect(ReplyResult.subscribed(3).jsonText == #"{"subscription":3}"#)
        #expect(ReplyResult.reloaded(views: 12).jsonText == #"{"views":12}"#)
        #expect(ReplyResult.snapshot(window: "main", svg: "<svg/>").jsonText == #"{"window":"main","svg":"<svg/>"}"#)
        #expect(ReplyResult.firstResponder(window: "main", current: nil).jsonText == #"{"window":"main","first_responder":null}"#)
        var counters = StatsCounters()
        counters.framesIn = 1
        counters.eventsDispatched = 2
        counters.clientsRefusedFull = 3
        counters.requestsServed = 4
        counters.wakeups = 5
        #expect(
            ReplyResult.stats(counters).jsonText
                == #"{"frames_in":1,"events_dispatched":2,"touches_began":0,"touches_cancelled":0,"actions_emitted":0,"anomalies":0,"queue_high_water_mark":0,"queue_coalesced":0,"clients":0,"clients_accepted":0,"clients_refused":0,"clients_refused_full":3,"accept_backoffs":0,"requests_served":4,"messages_sent":0,"messages_dropped":0,"client_queue_peak_bytes":0,"clients_disconnected_slow":0,"clients_closed_stalled":0,"clients_refused_places":0,"clients_closed_idle":0,"websocket_handshakes":0,"websocket_refused":0,"websocket_handshake_timeouts":0,"websocket_protocol_errors":0,"websocket_ping_timeouts":0,"remote_control_ignored":0,"active_touches":0,"wakeups":5,"devices":0,"reloads":0,"reloads_refused":0}"#
        )
    }
}
