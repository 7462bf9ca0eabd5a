import TouchCore

/// Escapes text for XML character data and attribute values (both quote styles).
public func escapeXML(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            // XML 1.0 allows only tab, newline and carriage return below U+0020 (and no U+FFFE/U+FFFF).
            if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" {
                out += "\u{FFFD}"
            } else if scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                out += "\u{FFFD}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out
}

/// A number as SVG writes it: compact, at most three decimals.
func svgNumber(_ value: Double) -> String { formatNumber(value) }

/// An SVG document being written, element by element, with its indentation.
struct SVGBuilder {
    private(set) var text = ""
    private var depth = 0
    private var open: [String] = []

    /// One attribute: a name and an unescaped value.
    typealias Attribute = (String, String)

    private mutating func line(_ s: String) {
        text += String(repeating: "  ", count: depth) + s + "\n"
    }

    private static func attributes(_ attrs: [Attribute]) -> String {
        attrs.map { " \($0.0)=\"\(escapeXML($0.1))\"" }.joined()
    }

    /// An element with no children.
    mutating func empty(_ name: String, _ attrs: [Attribute]) {
        line("<\(name)\(Self.attributes(attrs))/>")
    }

    /// An element with only text inside.
    mutating func text(_ name: String, _ attrs: [Attribute], _ content: String) {
        line("<\(name)\(Self.attributes(attrs))>\(escapeXML(content))</\(name)>")
    }

    /// Opens an element; ``end()`` closes it.
    mutating func begin(_ name: String, _ attrs: [Attribute] = []) {
        line("<\(name)\(Self.attributes(attrs))>")
        open.append(name)
        depth += 1
    }

    mutating func end() {
        depth -= 1
        line("</\(open.removeLast())>")
    }

    /// A comment (its text cannot close it early).
    mutating func comment(_ content: String) {
        line("<!-- \(content.replacingDoubleHyphens()) -->")
    }

    /// Raw markup, already escaped.
    mutating func raw(_ markup: String) { line(markup) }

    static func rect(_ r: Rect) -> [Attribute] {
        [("x", svgNumber(r.minX)), ("y", svgNumber(r.minY)), ("width", svgNumber(r.width)), ("height", svgNumber(r.height))]
    }

    static func points(_ points: [Point]) -> String {
        points.map { "\(svgNumber($0.x)),\(svgNumber($0.y))" }.joined(separator: " ")
    }
}

extension String {
    fileprivate func replacingDoubleHyphens() -> String {
        var out = ""
        var previousHyphen = false
        for ch in self {
            if ch == "-" && previousHyphen {
                out += " -"
                previousHyphen = true
                continue
            }
            out.append(ch)
            previousHyphen = ch == "-"
        }
        return out.hasSuffix("-") ? out + " " : out
    }
}
