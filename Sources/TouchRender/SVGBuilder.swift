import TouchCore

/// Escapes text for XML character data and attribute values (both quote styles).
public func escapeXML(_ text: String) -> String {
    var out: [UInt8] = []
    appendEscapedXML(text, to: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends the UTF-8 of `text` escaped for XML character data and attribute values to `out`:
/// `&`, `<`, `>` and both quotes as entities, and the characters XML 1.0 does not allow (controls
/// other than tab, newline and carriage return; U+FFFE and U+FFFF) as U+FFFD.
func appendEscapedXML(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
        // Runs of bytes that need no escaping are copied whole.
        var run = 0
        var i = 0
        func replace(_ count: Int, with replacement: StaticString) {
            out.appendBytes(UnsafeBufferPointer(rebasing: bytes[run..<i]))
            out.appendBytes(UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            i += count
            run = i
        }
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "&"): replace(1, with: "&amp;")
            case UInt8(ascii: "<"): replace(1, with: "&lt;")
            case UInt8(ascii: ">"): replace(1, with: "&gt;")
            case UInt8(ascii: "\""): replace(1, with: "&quot;")
            case UInt8(ascii: "'"): replace(1, with: "&apos;")
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): i += 1
            case 0..<0x20: replace(1, with: "\u{FFFD}")
            // U+FFFE and U+FFFF: EF BF BE and EF BF BF.
            case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                replace(3, with: "\u{FFFD}")
            default: i += 1
            }
        }
        out.appendBytes(UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
    }
}

/// An SVG document being written, element by element, with its indentation, up to a size.
///
/// The document is kept as UTF-8 bytes and made a string once, at the end. An element is written
/// either in one call with its attributes as an array (``empty(_:_:)``, ``text(_:_:_:)``,
/// ``begin(_:_:)``), or, where thousands are written, piece by piece without building any
/// intermediate strings: ``startTag(_:)``, then ``attribute(_:_:)`` and its siblings, then
/// ``endEmptyTag()``, ``endOpenTag()`` or ``startContent()``, some ``content(_:)`` and
/// ``endContent()``. Every line is checked against the byte limit when it ends.
struct SVGBuilder {
    private var bytes: [UInt8] = []
    private var depth = 0
    private var open: [String] = []
    /// The element whose tag is being written, and where its line starts.
    private var tag = ""
    private var lineStart = 0
    /// The most bytes of UTF-8 the document may take.
    let byteLimit: Int
    /// Whether a line did not fit within ``byteLimit``: it and every line after it were left out.
    private(set) var isFull = false

    /// One attribute: a name and an unescaped value.
    typealias Attribute = (String, String)

    init(byteLimit: Int = .max) {
        self.byteLimit = max(0, byteLimit)
    }

    /// The document written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// Its size in bytes of UTF-8.
    var byteCount: Int { bytes.count }

    // MARK: - Piece by piece

    /// Starts a line: its indentation.
    private mutating func startLine() {
        lineStart = bytes.count
        for _ in 0..<max(0, depth) {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
        }
    }

    /// Ends the line: its newline; the whole line is taken back when it does not fit.
    private mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count > byteLimit {
            bytes.removeSubrange(lineStart...)
            isFull = true
        }
    }

    /// Starts an element's tag, `<name`, on a line of its own.
    mutating func startTag(_ name: String) {
        guard !isFull else { return }
        startLine()
        tag = name
        bytes.append(UInt8(ascii: "<"))
        bytes.appendUTF8(name)
    }

    /// ` name="`, the start of an attribute.
    private mutating func startAttribute(_ name: String) {
        bytes.append(UInt8(ascii: " "))
        bytes.appendUTF8(name)
        bytes.append(UInt8(ascii: "="))
        bytes.append(UInt8(ascii: "\""))
    }

    /// An attribute of the tag started, its value escaped.
    mutating func attribute(_ name: String, _ value: String) {
        guard !isFull else { return }
        startAttribute(name)
        appendEscapedXML(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An attribute of the tag started whose value is a number (see ``svgNumber(_:)``).
    mutating func attribute(_ name: String, number: Double) {
        guard !isFull else { return }
        startAttribute(name)
        bytes.appendNumber(number)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An attribute whose value is four numbers separated by spaces: `x y width height`.
    mutating func attribute(_ name: String, numbersOf r: Rect) {
        guard !isFull else { return }
        startAttribute(name)
        bytes.appendNumbers(of: r)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A `<rect>`'s `x`, `y`, `width` and `height`.
    mutating func rectAttributes(_ r: Rect) {
        attribute("x", number: r.minX)
        attribute("y", number: r.minY)
        attribute("width", number: r.width)
        attribute("height", number: r.height)
    }

    /// Ends the tag started as an element with no children: `/>`.
    mutating func endEmptyTag() {
        guard !isFull else { return }
        bytes.append(UInt8(ascii: "/"))
        bytes.append(UInt8(ascii: ">"))
        endLine()
    }

    /// Ends the tag started as an element with children; ``end()`` closes it.
    mutating func endOpenTag() {
        guard !isFull else { return }
        bytes.append(UInt8(ascii: ">"))
        endLine()
        open.append(tag)
        depth += 1
    }

    /// Ends the tag started as an element with only text inside: the text follows.
    mutating func startContent() {
        guard !isFull else { return }
        bytes.append(UInt8(ascii: ">"))
    }

    /// Text inside the element, escaped.
    mutating func content(_ text: String) {
        guard !isFull else { return }
        appendEscapedXML(text, to: &bytes)
    }

    /// A number inside the element (see ``svgNumber(_:)``).
    mutating func content(number: Double) {
        guard !isFull else { return }
        bytes.appendNumber(number)
    }

    /// A rectangle inside the element, as `Rect.description` writes it: `(x y; width height)`.
    mutating func content(_ r: Rect) {
        guard !isFull else { return }
        bytes.appendDescription(of: r)
    }

    /// Closes the element whose text was written: `</name>`.
    mutating func endContent() {
        guard !isFull else { return }
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        bytes.appendUTF8(tag)
        bytes.append(UInt8(ascii: ">"))
        endLine()
    }

    // MARK: - Whole elements

    private mutating func startTag(_ name: String, _ attrs: [Attribute]) {
        startTag(name)
        for (attribute, value) in attrs { self.attribute(attribute, value) }
    }

    /// An element with no children.
    mutating func empty(_ name: String, _ attrs: [Attribute]) {
        startTag(name, attrs)
        endEmptyTag()
    }

    /// An element with only text inside.
    mutating func text(_ name: String, _ attrs: [Attribute], _ content: String) {
        startTag(name, attrs)
        startContent()
        self.content(content)
        endContent()
    }

    /// Opens an element; ``end()`` closes it.
    mutating func begin(_ name: String, _ attrs: [Attribute] = []) {
        startTag(name, attrs)
        endOpenTag()
    }

    /// Closes the element ``begin(_:_:)`` or ``endOpenTag()`` opened last (nothing when none is open).
    mutating func end() {
        guard !isFull, let name = open.popLast() else { return }
        depth -= 1
        startLine()
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        bytes.appendUTF8(name)
        bytes.append(UInt8(ascii: ">"))
        endLine()
    }

    /// A comment (its text cannot close it early).
    mutating func comment(_ content: String) {
        raw("<!-- \(content.replacingDoubleHyphens()) -->")
    }

    /// Raw markup, already escaped.
    mutating func raw(_ markup: String) {
        guard !isFull else { return }
        startLine()
        bytes.appendUTF8(markup)
        endLine()
    }

    static func rect(_ r: Rect) -> [Attribute] {
        [("x", svgNumber(r.minX)), ("y", svgNumber(r.minY)), ("width", svgNumber(r.width)), ("height", svgNumber(r.height))]
    }

    /// An attribute whose value is points: `x,y x,y ...`.
    mutating func attribute(_ name: String, points: [Point]) {
        guard !isFull else { return }
        startAttribute(name)
        for (n, p) in points.enumerated() {
            if n > 0 { bytes.append(UInt8(ascii: " ")) }
            bytes.appendNumber(p.x)
            bytes.append(UInt8(ascii: ","))
            bytes.appendNumber(p.y)
        }
        bytes.append(UInt8(ascii: "\""))
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
