import TouchCore

/// "Did you mean ...?" for unknown keys, values and ids.
enum Suggestions {
    /// The candidate closest to `word` (``TouchCore/Spelling/closest(to:among:aliases:)``).
    static func closest(to word: String, among candidates: [String], aliases: [String: String] = [:]) -> String? {
        Spelling.closest(to: word, among: candidates, aliases: aliases)
    }

    /// `did you mean "x"?` or nothing.
    static func didYouMean(_ word: String, among candidates: [String], aliases: [String: String] = [:]) -> String? {
        closest(to: word, among: candidates, aliases: aliases).map { "did you mean \(quote($0))?" }
    }
}
