/// One state change of a recognizer, as a trace records it: `from → input → to`.
///
/// A state is its lifecycle's (``GestureState``'s names; `possible(holding began)` while the arena
/// holds a recognition back) followed by its kind's own machine's, with that state's values. The
/// inputs are an event's touches (`touches 3 began, 4 moved`: those given to the recognizer),
/// `timer`, the arena's decisions (`hold began`, `commit recognized`, `fail`, `change`, `end`,
/// `cancel`) and `reset`. An input that changes nothing is not recorded.
public struct GestureTransition: Hashable, Sendable, CustomStringConvertible {
    public var recognizer: ResponderID
    /// When it happened (input time): the event's time, or the timer's.
    public var timestamp: InputTime
    public var from: String
    public var input: String
    public var to: String

    public init(recognizer: ResponderID, timestamp: InputTime, from: String, input: String, to: String) {
        self.recognizer = recognizer
        self.timestamp = timestamp
        self.from = from
        self.input = input
        self.to = to
    }

    public var description: String { "\(recognizer): \(from) → \(input) → \(to)" }
}
