import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TouchCore

/// An SVG file read back into elements, to check what a picture says rather than how it is spelled.
final class SVGElement {
    let name: String
    let attributes: [String: String]
    var children: [SVGElement] = []
    var text = ""
    weak var parent: SVGElement?

    init(name: String, attributes: [String: String], parent: SVGElement?) {
        self.name = name
        self.attributes = attributes
        self.parent = parent
    }

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    /// Every element below this one, depth first, in document order.
    var descendants: [SVGElement] { children.flatMap { [$0] + $0.descendants } }

    func all(_ name: String, class cls: String? = nil) -> [SVGElement] {
        descendants.filter { $0.name == name && (cls == nil || $0.classes.contains(cls!)) }
    }

    var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }

    /// `x y width height` of a `<rect>`.
    var rect: Rect? {
        guard let x = number("x"), let y = number("y"), let w = number("width"), let h = number("height") else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }
}

struct SVGParseError: Error, CustomStringConvertible {
    var description: String
}

/// Parses with Foundation's XMLParser (libxml2): a malformed document fails.
final class SVGDocumentReader: NSObject, XMLParserDelegate {
    private var root: SVGElement?
    private var current: SVGElement?
    /// Errors libxml2 reported, even those it recovered from.
    private(set) var errors: [String] = []

    static func parse(_ text: String) throws -> SVGElement {
        let reader = SVGDocumentReader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        let finished = parser.parse()
        if let error = reader.errors.first {
            throw SVGParseError(description: "not well-formed XML: \(error)")
        }
        guard finished, let root = reader.root else {
            let line = parser.lineNumber
            throw SVGParseError(description: "not well-formed XML at line \(line): \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let element = SVGElement(name: elementName, attributes: attributeDict, parent: current)
        if let current { current.children.append(element) } else { root = element }
        current = element
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        current = current?.parent
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        errors.append("line \(parser.lineNumber): \(parseError)")
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current?.text += string
    }
}

func approximatelyEqual(_ a: Rect?, _ b: Rect?, tolerance: Double = 0.001) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance && abs(a.width - b.width) <= tolerance
        && abs(a.height - b.height) <= tolerance
}

/// `"x y w h"` as written in `data-frame`.
func rect(fromList text: String?) -> Rect? {
    guard let parts = text?.split(separator: " ").compactMap({ Double($0) }), parts.count == 4 else { return nil }
    return Rect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
}

/// The repository's root, for config/ files.
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()
