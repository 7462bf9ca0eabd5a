/// Translates the YAML reader's line numbers into the lines every error of touchd names.
///
/// touchd counts lines at `\n` alone (``TextLines``); the YAML reader also breaks lines at a lone
/// `\r`, NEL (U+0085), LS (U+2028) and PS (U+2029), and counts one line past the last when the text
/// does not end with a line break. Its lines are translated before an error leaves the parser, so
/// the line named is always one of the text's.
enum YAMLLines {
    /// The line of `text` on which the YAML reader's line `yamlLine` starts; the last line when it is
    /// past the end, the first when it is below 1.
    static func line(ofYAMLLine yamlLine: Int, in text: String) -> Int {
        var walk = Walk()
        for scalar in text.unicodeScalars {
            if walk.yamlLine >= yamlLine && !walk.continuesBreak(scalar) { break }
            walk.step(scalar)
        }
        return walk.line
    }

    /// The YAML reader's line of the byte at `offset` of `text`.
    static func yamlLine(ofByte offset: Int, in text: String) -> Int {
        var walk = Walk()
        var position = 0
        for scalar in text.unicodeScalars {
            position += UTF8.width(scalar)
            guard position <= offset else { break }
            walk.step(scalar)
        }
        return walk.yamlLine
    }

    /// Both counts, scalar by scalar.
    private struct Walk {
        var line = 1
        var yamlLine = 1
        var afterCarriageReturn = false

        /// Whether `scalar` is the `\n` of a `\r\n`, which the YAML reader counts once, at the `\r`.
        func continuesBreak(_ scalar: Unicode.Scalar) -> Bool { afterCarriageReturn && scalar == "\n" }

        mutating func step(_ scalar: Unicode.Scalar) {
            if scalar == "\n" { line += 1 }
            if !continuesBreak(scalar) && ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) { yamlLine += 1 }
            afterCarriageReturn = scalar == "\r"
        }
    }
}
