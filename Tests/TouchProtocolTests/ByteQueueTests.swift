import Testing
import TouchProtocol

/// The send queue against a plain array doing the same: appends, partial writes from the front,
/// lines taken back from the end, and the moves and growth that reuse its room.
@Suite(.timeLimit(.minutes(10))) struct ByteQueueTests {
    @Test func aQueueHoldsWhatAnArrayWouldThroughAnyMixOfOperations() {
        var state: UInt64 = 99
        func roll(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let queue = ByteQueue(capacity: 64)
        var model: [UInt8] = []
        var seq: UInt64 = 1
        for step in 0..<20_000 {
            switch roll(10) {
            case 0...4:
                let body = String(repeating: "x", count: roll(300))
                let message = OutboundMessage(topic: nil, droppable: false, body: body.isEmpty ? "" : #""b":""# + body + #"""#)
                queue.appendLine(message, seq: seq)
                model += Array(message.line(seq: seq).utf8)
                seq = seq &* 3 &+ UInt64(roll(1000))
            case 5:
                let raw = (0..<roll(100)).map { _ in UInt8(roll(256)) }
                raw.withUnsafeBytes { queue.append($0) }
                model += raw
            case 6, 7:
                let n = roll(model.count + 1)
                queue.consume(n)
                model.removeFirst(n)
            case 8:
                let n = roll(min(model.count, 50) + 1)
                queue.removeLast(n)
                model.removeLast(n)
            default:
                if roll(20) == 0 {
                    queue.removeAll(keepingCapacity: roll(2) == 0)
                    model.removeAll()
                }
            }
            #expect(queue.count == model.count, "step \(step)")
            if step % 97 == 0 || queue.count < 200 {
                #expect(queue.bytes == model, "step \(step)")
                #expect(queue.withQueuedBytes { Array($0) } == model, "step \(step)")
            }
        }
        #expect(queue.bytes == model)
    }
}
