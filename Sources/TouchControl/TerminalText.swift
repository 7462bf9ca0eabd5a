import TouchCore

/// What touchctl shows on a terminal: every character that is not printable (the control
/// characters of ``TouchCore/Identifier/isControl(_:)``: ESC, BEL, NUL, CR, LF, DEL, C1 and the
/// line separators) is written as `\u{1B}`, so a name or a message can never move the cursor,
/// clear the screen, set the clipboard (OSC 52) or forge a line.
enum TerminalText {
    /// `text` with its non-printable characters escaped; `keepingNewlines` keeps LF (a text of
    /// several lines that touchctl itself joined).
    static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { Identifier.isControl($0) && !(keepingNewlines && $0 == "\n") }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if Identifier.isControl(scalar) && !(keepingNewlines && scalar == "\n") {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Writes to standard output as the standard library's `print` does, with every non-printable
/// character escaped (``TerminalText``): every line touchctl prints goes through here.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(TerminalText.escaped(text, keepingNewlines: true), terminator: terminator)
}
