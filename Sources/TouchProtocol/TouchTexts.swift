import TouchCore

/// What the `input` form's messages of a touch repeat from one to the next, kept as written: its
/// `device`, `window` and `view` members (fixed for the touch's life), and the text of the numbers
/// it wrote last: its place in the window and in its view (the next message's place before, most
/// often), its size, its size's tolerance, its force and its greatest force. A batch keeps them
/// for the touches it writes (``MessageBatch``): at the input's rate, ten fingers give ten messages
/// a frame, each of which wrote three names and sixteen numbers.
struct TouchTexts {
    /// One touch's kept text.
    struct Kept {
        var id: TouchID
        var device: String
        var window: ResponderID?
        var view: ResponderID?
        /// `"device":..,"window":..,"view":..`.
        var place: [UInt8]
        var numbers = Numbers()
    }

    /// The text of the numbers a touch's last message wrote.
    struct Numbers {
        typealias Pair = (x: JSONWriter.WrittenNumber, y: JSONWriter.WrittenNumber)
        var location: Pair = (.init(), .init())
        var locationInView: Pair = (.init(), .init())
        var majorRadius = JSONWriter.WrittenNumber()
        var majorRadiusTolerance = JSONWriter.WrittenNumber()
        var force = JSONWriter.WrittenNumber()
        var maximumPossibleForce = JSONWriter.WrittenNumber()
    }

    /// Oldest first.
    private(set) var kept: [Kept] = []
    /// The most touches kept (more than fingers on a screen); past it, the oldest is let go.
    static let keptAtMost = 32

    /// Where the text of touch `id` (of `device`, `window` and `view`) is kept: found, or written
    /// now (its place members) and kept.
    mutating func index(of id: TouchID, device: String, window: ResponderID?, view: ResponderID?) -> Int {
        // Touch numbers are not reused, but a batch may write for another application: the names
        // are compared too (the same strings, most often the same storage).
        if let n = kept.lastIndex(where: { $0.id == id }) {
            if kept[n].device == device && kept[n].window == window && kept[n].view == view { return n }
            kept.remove(at: n)
        }
        if kept.count >= Self.keptAtMost { kept.removeFirst() }
        var w = JSONWriter(capacity: 128)
        w.member("device"); w.string(device)
        w.member("window"); MessageEncoder.id(window, to: &w)
        w.member("view"); MessageEncoder.id(view, to: &w)
        kept.append(Kept(id: id, device: device, window: window, view: view, place: w.bytes))
        return kept.count - 1
    }

    /// Writes the place members kept at `n`.
    func writePlace(_ n: Int, to w: inout JSONWriter) {
        kept[n].place.withUnsafeBufferPointer { w.members(raw: $0) }
    }

    /// The numbers kept at `n`, to write with and keep anew.
    mutating func withNumbers<R>(_ n: Int, _ body: (inout Numbers) -> R) -> R { body(&kept[n].numbers) }

    /// Lets go of the text kept at `n` (its touch ended).
    mutating func forget(_ n: Int) { kept.remove(at: n) }
}
