import TouchCore

/// The messages about a connection and the daemon's devices, besides replies: each has one
/// function here, so no other module writes a message's members itself.
extension MessageEncoder {
    /// The last message on a connection: why touchd closes it.
    public static func goodbye(reason: String) -> OutboundMessage {
        OutboundMessage(topic: nil, droppable: false) { w in
            w.member("type"); w.literal(#""goodbye""#)
            w.member("reason"); w.string(reason)
        }
    }

    /// How many messages a slow client missed, and the sequence numbers of the first and the last.
    public static func dropped(count: Int, firstSeq: UInt64, lastSeq: UInt64) -> OutboundMessage {
        OutboundMessage(topic: nil, droppable: false) { w in
            w.member("type"); w.literal(#""dropped""#)
            w.member("count"); w.int(Int64(count))
            w.member("first_seq"); w.int(Int64(clamping: firstSeq))
            w.member("last_seq"); w.int(Int64(clamping: lastSeq))
        }
    }

    /// The error for a request line longer than `maximumLineLength` bytes (the connection closes).
    public static func lineTooLong(maximumLineLength: Int) -> OutboundMessage {
        OutboundMessage(topic: nil, droppable: false) { w in
            w.member("type"); w.literal(#""error""#)
            w.member("error")
            w.object { w in
                w.member("code"); w.literal(#""line_too_long""#)
                w.member("message"); w.string("request lines are limited to \(maximumLineLength) bytes")
            }
        }
    }

    /// An input device appeared, `id` by its identity; the message's `description` is
    /// ``DeviceListing/announced``. With `alreadyPresent`, it was there before the client
    /// subscribed (`"already_present":true`).
    public static func deviceAdded(id: String, description: DeviceListing, alreadyPresent: Bool = false) -> OutboundMessage {
        OutboundMessage(topic: .devices, droppable: false) { w in
            w.member("type"); w.literal(#""device""#)
            w.member("event"); w.literal(#""added""#)
            w.member("device"); w.string(id)
            w.member("description"); w.value(description.announced)
            if alreadyPresent {
                w.member("already_present"); w.bool(true)
            }
        }
    }

    /// The layout was reloaded: what changed, and the run-time changes the reload dropped (see
    /// ``ReloadSummary``).
    public static func reloaded(_ summary: ReloadSummary) -> OutboundMessage {
        func ids(_ list: [ResponderID], _ w: inout JSONWriter) {
            w.array { w in
                for id in list {
                    w.element()
                    w.string(id.rawValue)
                }
            }
        }
        return OutboundMessage(topic: nil, droppable: false) { w in
            w.member("type"); w.literal(#""reload""#)
            w.member("views"); w.int(Int64(summary.views))
            w.member("added"); ids(summary.added, &w)
            w.member("removed"); ids(summary.removed, &w)
            w.member("changed"); ids(summary.changed, &w)
            w.member("dropped")
            w.object { w in
                w.member("set"); ids(summary.droppedSet, &w)
                w.member("added"); ids(summary.droppedAdded, &w)
                w.member("removed"); ids(summary.droppedRemoved, &w)
                w.member("first_responders"); ids(summary.droppedFirstResponders, &w)
                w.member("controls"); ids(summary.droppedControls, &w)
            }
            if summary.omitted > 0 {
                w.member("omitted"); w.int(Int64(summary.omitted))
            }
        }
    }

    /// An input device went away.
    public static func deviceRemoved(id: String) -> OutboundMessage {
        OutboundMessage(topic: .devices, droppable: false) { w in
            w.member("type"); w.literal(#""device""#)
            w.member("event"); w.literal(#""removed""#)
            w.member("device"); w.string(id)
        }
    }
}
