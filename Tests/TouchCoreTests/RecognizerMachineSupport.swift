import Testing

@testable import TouchCore

#if canImport(Glibc)
import Glibc
#endif

/// A touch with what recognizers read of it: its number, phase, place and view.
func touch(_ id: TouchID, _ phase: TouchPhase, _ x: Double, _ y: Double) -> Touch {
    let p = Point(x: x, y: y)
    return Touch(
        id: id, device: "dev", contact: id, phase: phase, timestamp: 0, tapCount: 1, majorRadius: 0, majorRadiusTolerance: 0,
        force: 0, maximumPossibleForce: 0, window: "window", view: "view", locationInWindow: p, previousLocationInWindow: p,
        beganAt: 0, beganLocationInWindow: p, delivery: .delivered, coalescedSamples: [])
}

/// One input to a kind's machine, as its recognizer gives it.
enum MachineInput: CustomStringConvertible {
    /// An event's changed touches at a time.
    case touches(Double, [Touch])
    /// Its timer fired.
    case timer
    /// The arena let it begin.
    case began
    case reset

    var description: String {
        switch self {
        case .touches(let t, let touches): "at \(t): " + touches.map { "\($0.id) \($0.phase.rawValue) \($0.locationInWindow)" }.joined(separator: ", ")
        case .timer: "timer"
        case .began: "began"
        case .reset: "reset"
        }
    }
}

/// A kind's machine with the tracks its recognizer keeps for it: touches go through the tracks
/// first, as ``GestureRecognizer`` gives them.
struct MachineBench<Machine: RecognizerMachine> {
    var machine: Machine
    var tracks = TouchTracks()

    /// Gives the machine one input; `nil` when an event had none of its own touches.
    mutating func apply(_ input: MachineInput) -> RecognizerOutcome? {
        switch input {
        case .touches(let time, let touches):
            guard let changes = tracks.apply(touches) else { return nil }
            let outcome = machine.touchesChanged(changes, tracks: tracks, time: InputTime(seconds: time))
            tracks.settle(after: outcome)
            return outcome
        case .timer:
            return machine.timerFired()
        case .began:
            machine.began()
            return RecognizerOutcome.none
        case .reset:
            tracks = TouchTracks()
            machine.reset()
            return RecognizerOutcome.none
        }
    }
}

/// One transition of a machine's table: the inputs that bring it to the state it starts from, the
/// input, and what it says and where it goes.
struct MachineRow<Machine: RecognizerMachine> where Machine.State: Equatable {
    var name: String
    var prelude: [MachineInput]
    var input: MachineInput
    var outcome: RecognizerOutcome?
    var to: Machine.State
}

/// Checks every row from a fresh machine: its prelude, then its input, its outcome and its state.
func checkTransitions<Machine: RecognizerMachine>(
    _ make: () -> Machine, _ rows: [MachineRow<Machine>], sourceLocation: SourceLocation = #_sourceLocation
) where Machine.State: Equatable {
    for row in rows {
        var bench = MachineBench(machine: make())
        for input in row.prelude { _ = bench.apply(input) }
        let from = bench.machine.state
        let outcome = bench.apply(row.input)
        #expect(outcome == row.outcome, "\(row.name): \(from) → \(row.input)", sourceLocation: sourceLocation)
        #expect(bench.machine.state == row.to, "\(row.name): \(from) → \(row.input)", sourceLocation: sourceLocation)
    }
}

/// SplitMix64: a small seeded generator, so that a failing random run can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seeds of the random runs: `TOUCHD_GESTURE_SEED` alone when set (to replay one), else a
/// fixed list.
let machineSeeds: [UInt64] = {
    if let text = getenvString("TOUCHD_GESTURE_SEED"), let seed = UInt64(text) { return [seed] }
    return [1, 2, 3, 42, 2026, 0xDEAD_BEEF, 7_777_777, 123_456_789]
}()

private func getenvString(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

/// A random event for fingers 1 to `fingers`: one finger lands, moves (up to `step` points) or
/// lifts, given which are down; `nil` when nothing can happen.
func randomEvent(
    down: inout [TouchID: Point], next: inout TouchID, fingers: Int, step: Double, using rng: inout SeededGenerator
) -> [Touch] {
    let choice = Int.random(in: 0..<4, using: &rng)
    if choice == 0 || down.isEmpty {
        guard down.count < fingers else { return [] }
        let p = Point(x: Double.random(in: 0...200, using: &rng), y: Double.random(in: 0...200, using: &rng))
        down[next] = p
        next += 1
        return [touch(next - 1, .began, p.x, p.y)]
    }
    let ids = down.keys.sorted()
    let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
    guard let p = down[id] else { return [] }
    if choice == 3 {
        down[id] = nil
        return [touch(id, .ended, p.x, p.y)]
    }
    let q = Point(x: p.x + Double.random(in: -step...step, using: &rng), y: p.y + Double.random(in: -step...step, using: &rng))
    down[id] = q
    return [touch(id, .moved, q.x, q.y)]
}
