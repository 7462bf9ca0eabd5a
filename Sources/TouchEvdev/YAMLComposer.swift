import CYAML

/// Composes the one document of a YAML text into ``YAMLNode``s, over libyaml's event parser.
///
/// The composer keeps its own stack of open collections, so nesting costs heap, not the call
/// stack. An alias is replaced by the node its anchor named (the arrays share their storage); the
/// text should be measured by ``YAMLBudget`` first, which bounds what the aliases expand to and
/// how deep the document nests. Lines are the YAML reader's (``YAMLLines`` translates them).
enum YAMLComposer {
    /// The text's document, or nil when the text holds none (nothing, or only comments).
    ///
    /// - Throws: ``YAMLSyntaxError`` for text that is not YAML, an alias with no anchor before it,
    ///   a mapping with duplicate keys or a second document.
    static func compose(_ text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        var copy = text
        let result = copy.withUTF8 { bytes in
            // libyaml wants an input even when it is empty.
            guard let base = bytes.baseAddress else { return Result<YAMLNode?, YAMLSyntaxError>.success(nil) }
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return Result<YAMLNode?, YAMLSyntaxError>.failure(.readerFailed) }
            defer { yaml_parser_delete(&parser) }
            return withUnsafeMutablePointer(to: &parser) { pointer in
                yaml_parser_set_encoding(pointer, YAML_UTF8_ENCODING)
                yaml_parser_set_input_string(pointer, base, bytes.count)
                let events = EventSource(parser: pointer, text: text)
                return Result { () throws(YAMLSyntaxError) in try composeStream(events) }
            }
        }
        return try result.get()
    }

    /// The stream's single document: stream start, the document, stream end.
    private static func composeStream(_ events: EventSource) throws(YAMLSyntaxError) -> YAMLNode? {
        var state = ComposeState()
        while true {
            let event = try events.next()
            switch event.kind {
            case .streamStart, .documentEnd:
                continue
            case .streamEnd:
                return state.root
            case .documentStart:
                if state.documents > 0 {
                    throw YAMLSyntaxError(problem: "but found another document", line: event.line)
                }
                state.documents += 1
            case .node(let node):
                try state.add(node, line: event.line)
            }
        }
    }
}

/// Why a YAML text could not be composed: libyaml's own description of the problem (or the
/// composer's: an undefined alias, duplicate keys, a second document) and the line it names as
/// the YAML reader counts lines, when it names one.
struct YAMLSyntaxError: Error, Equatable {
    let problem: String
    let line: Int?

    /// libyaml could not start or ran out of memory.
    static let readerFailed = YAMLSyntaxError(problem: "the YAML reader failed", line: nil)
}

/// What a libyaml event says about the document, copied out of the event.
private enum NodeEvent {
    case scalar(YAMLScalar, anchor: String?)
    case alias(String)
    case sequenceStart(anchor: String?)
    case mappingStart(anchor: String?)
    case collectionEnd
}

/// libyaml's events, one at a time, as Swift values.
private struct EventSource {
    /// The parser, initialised and given its input, valid while the source is used.
    let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The text being parsed, to name the line of a reader error (which gives a byte offset).
    let text: String

    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd
        case node(NodeEvent)
    }

    /// The next event and the line it starts on.
    func next() throws(YAMLSyntaxError) -> (kind: Kind, line: Int) {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw error() }
        defer { yaml_event_delete(&event) }
        let line = Int(truncatingIfNeeded: event.start_mark.line) &+ 1
        return (Self.kind(of: event, line: line), line)
    }

    private static func kind(of event: yaml_event_t, line: Int) -> Kind {
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_DOCUMENT_START_EVENT: return .documentStart
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT: return .node(.alias(name(event.data.alias.anchor) ?? ""))
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = scalar.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(truncatingIfNeeded: scalar.length)), as: UTF8.self)
            }
            let value = YAMLScalar(text: text ?? "", isPlain: scalar.style == YAML_PLAIN_SCALAR_STYLE, line: line)
            return .node(.scalar(value, anchor: name(scalar.anchor)))
        case YAML_SEQUENCE_START_EVENT: return .node(.sequenceStart(anchor: name(event.data.sequence_start.anchor)))
        case YAML_MAPPING_START_EVENT: return .node(.mappingStart(anchor: name(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: return .node(.collectionEnd)
        default: return .streamEnd  // YAML_NO_EVENT: libyaml gives it only after the stream's end.
        }
    }

    /// An anchor's name (libyaml gives it NUL-terminated), or nil when the node has none.
    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }

    /// The parser's error, with libyaml's description and the line it names.
    private func error() -> YAMLSyntaxError {
        let parser = self.parser.pointee
        let problem = parser.problem.map { String(cString: $0) } ?? "the YAML reader failed"
        switch parser.error {
        case YAML_READER_ERROR:
            let offset = Int(truncatingIfNeeded: parser.problem_offset)
            return YAMLSyntaxError(problem: problem, line: YAMLLines.yamlLine(ofByte: offset, in: text))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
            return YAMLSyntaxError(problem: problem, line: Int(truncatingIfNeeded: parser.problem_mark.line) &+ 1)
        default:
            return .readerFailed
        }
    }
}

/// The document being composed: its open collections, innermost last, and its anchors.
private struct ComposeState {
    /// A collection whose end has not been reached yet.
    private struct OpenCollection {
        let isMapping: Bool
        let line: Int
        let anchor: String?
        var items: [YAMLNode] = []
    }

    private var open: [OpenCollection] = []
    /// The latest node each anchor named (a later anchor of the same name replaces it, as in YAML).
    private var anchors: [String: YAMLNode] = [:]
    private(set) var root: YAMLNode?
    var documents = 0

    mutating func add(_ event: NodeEvent, line: Int) throws(YAMLSyntaxError) {
        switch event {
        case .scalar(let scalar, let anchor):
            complete(.scalar(scalar), anchor: anchor)
        case .alias(let name):
            guard let node = anchors[name] else { throw YAMLSyntaxError(problem: "found undefined alias", line: line) }
            complete(node, anchor: nil)
        case .sequenceStart(let anchor):
            open.append(OpenCollection(isMapping: false, line: line, anchor: anchor))
        case .mappingStart(let anchor):
            open.append(OpenCollection(isMapping: true, line: line, anchor: anchor))
        case .collectionEnd:
            guard let closed = open.popLast() else { return }
            if closed.isMapping {
                let pairs = try Self.pairs(of: closed.items)
                complete(.mapping(pairs, line: closed.line), anchor: closed.anchor)
            } else {
                complete(.sequence(closed.items, line: closed.line), anchor: closed.anchor)
            }
        }
    }

    /// A node is whole: it is anchored, and goes into its collection (or is the document).
    private mutating func complete(_ node: YAMLNode, anchor: String?) {
        if let anchor { anchors[anchor] = node }
        if open.isEmpty {
            root = node
        } else {
            open[open.count - 1].items.append(node)
        }
    }

    /// A mapping's keys and values (libyaml gives them alternately), refused when two keys are the same.
    private static func pairs(of items: [YAMLNode]) throws(YAMLSyntaxError) -> [YAMLPair] {
        var pairs: [YAMLPair] = []
        pairs.reserveCapacity(items.count / 2)
        var index = 0
        while index + 1 < items.count {
            pairs.append(YAMLPair(key: items[index], value: items[index + 1]))
            index += 2
        }
        try YAMLKeys.checkUnique(pairs.map(\.key))
        return pairs
    }
}

/// Duplicate keys in one mapping: the same text for scalars (plain or quoted), the same
/// structure for collections.
private enum YAMLKeys {
    /// A key without its lines.
    private indirect enum Identity: Hashable {
        case scalar(String)
        case sequence([Identity])
        case mapping([Identity])

        init(_ node: YAMLNode) {
            switch node {
            case .scalar(let scalar): self = .scalar(scalar.text)
            case .sequence(let items, _): self = .sequence(items.map(Identity.init))
            case .mapping(let pairs, _): self = .mapping(pairs.flatMap { [Identity($0.key), Identity($0.value)] })
            }
        }
    }

    /// - Throws: ``YAMLSyntaxError`` naming how many keys are repeated, at the line of the first
    ///   occurrence of the first repeated key (scalars first, in the order of their text).
    static func checkUnique(_ keys: [YAMLNode]) throws(YAMLSyntaxError) {
        guard keys.count > 1 else { return }
        var first: [Identity: YAMLNode] = [:]
        var repeated: [Identity: YAMLNode] = [:]
        for key in keys {
            let identity = Identity(key)
            if let earlier = first[identity] {
                repeated[identity] = earlier
            } else {
                first[identity] = key
            }
        }
        guard !repeated.isEmpty else { return }
        let shown = repeated.values.min { lhs, rhs in
            switch (lhs.string, rhs.string) {
            case (let left?, let right?): return left < right || (left == right && lhs.line < rhs.line)
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return lhs.line < rhs.line
            }
        }
        throw YAMLSyntaxError(problem: "duplicate keys in a mapping (\(repeated.count) of them)", line: shown?.line)
    }
}
