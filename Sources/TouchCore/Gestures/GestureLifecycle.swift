/// The lifecycle every recognizer shares, whatever its kind: UIKit's `UIGestureRecognizer.State`,
/// with the recognition the arena holds back while the recognizers it requires to fail still decide.
///
/// A kind's machine proposes; the arena decides, and moves the lifecycle with these inputs:
///
///     possible        hold(r)         → possible(holding r)  recognizers it requires to fail still decide
///     possible        commit(began)   → active(began)        a continuous kind begins
///     possible        commit(recog.)  → finished(recognized) a discrete kind recognizes
///     possible        fail            → finished(failed)
///     active          change          → active(changed)
///     active          end             → finished(ended)
///     active          cancel          → finished(cancelled)  a touch cancelled
///     any             reset           → possible             its touches have all finished
///     any other input                 → unchanged            refused
///
/// Holding again replaces what it holds; committing or failing drops it.
struct GestureLifecycle: Sendable, Equatable {
    /// What the arena may hold back, and then commit: a continuous kind beginning or a discrete
    /// kind recognizing.
    enum Recognition: Sendable, Equatable {
        case began
        case recognized

        var state: GestureState {
            switch self {
            case .began: .began
            case .recognized: .recognized
            }
        }
    }

    enum Input: Sendable, Equatable, CustomStringConvertible {
        case hold(Recognition)
        case commit(Recognition)
        case fail
        case change
        case end
        case cancel
        case reset

        var description: String {
            switch self {
            case .hold(let r): "hold \(r.state.rawValue)"
            case .commit(let r): "commit \(r.state.rawValue)"
            case .fail: "fail"
            case .change: "change"
            case .end: "end"
            case .cancel: "cancel"
            case .reset: "reset"
            }
        }
    }

    /// How a lifecycle ended.
    enum Finish: Sendable, Equatable {
        case ended
        case recognized
        case cancelled
        case failed
    }

    enum State: Sendable, Equatable, CustomStringConvertible {
        /// Deciding; `holding` is a recognition waiting for recognizers it requires to fail.
        case possible(holding: Recognition?)
        /// Begun (continuous kinds); `changed` once it has changed.
        case active(changed: Bool)
        /// Over: it takes nothing but a reset.
        case finished(Finish)

        var description: String {
            switch self {
            case .possible(let held?): "possible(holding \(held.state.rawValue))"
            case .possible(nil), .active, .finished: GestureLifecycle(state: self).gestureState.rawValue
            }
        }
    }

    private(set) var state = State.possible(holding: nil)

    /// The state as UIKit names it.
    var gestureState: GestureState {
        switch state {
        case .possible: .possible
        case .active(changed: false): .began
        case .active(changed: true): .changed
        case .finished(.ended): .ended
        case .finished(.recognized): .recognized
        case .finished(.cancelled): .cancelled
        case .finished(.failed): .failed
        }
    }

    var isPossible: Bool {
        guard case .possible = state else { return false }
        return true
    }

    /// The recognition held back, if any.
    var held: Recognition? {
        guard case .possible(let held) = state else { return nil }
        return held
    }

    /// Applies `input`; returns whether it was taken (a refused input changes nothing).
    mutating func apply(_ input: Input) -> Bool {
        guard let next = next(after: input) else { return false }
        state = next
        return true
    }

    private func next(after input: Input) -> State? {
        switch (state, input) {
        case (.possible, .hold(let r)): .possible(holding: r)
        case (.possible, .commit(.began)): .active(changed: false)
        case (.possible, .commit(.recognized)): .finished(.recognized)
        case (.possible, .fail): .finished(.failed)
        case (.active, .change): .active(changed: true)
        case (.active, .end): .finished(.ended)
        case (.active, .cancel): .finished(.cancelled)
        case (_, .reset): .possible(holding: nil)
        case (.possible, .change), (.possible, .end), (.possible, .cancel), (.active, .hold), (.active, .commit),
            (.active, .fail), (.finished, _):
            nil
        }
    }
}
