/// Text from a client, shortened for a message about it (an unknown command or key may be
/// as long as a whole line).
public func excerpt(_ text: String, maximumCharacters: Int = 40) -> String {
    text.count <= maximumCharacters ? text : String(text.prefix(maximumCharacters)) + "..."
}
