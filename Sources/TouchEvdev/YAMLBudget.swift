import CYAML
import TouchCore

/// Measures a YAML text before it is composed into nodes: how many nodes it expands to, every
/// alias counted at the size of the node it stands for, and how deep it nests.
///
/// A few kilobytes of YAML built from aliases of aliases stand for billions of nodes; composing is
/// cheap (an alias shares its node), but walking the result, or hashing a mapping key that is such
/// an alias, is not. Deep nesting would exhaust the stack of whatever walks the nodes recursively
/// (comparing keys, releasing the tree). This pass reads the text once with libyaml's event parser,
/// in time linear in the text, and refuses it past ``TouchCore/Limits/maximumYAMLNodes`` or
/// ``TouchCore/Limits/maximumYAMLDepth``. Syntax errors are left to the composer
/// (``YAMLComposer``), which reports them with their line.
enum YAMLBudget {
    /// - Throws: ``RecordingError`` with the line where the budget ran out.
    static func check(_ text: String, file: String) throws(RecordingError) {
        guard !text.isEmpty else { return }
        var copy = text
        let outcome = copy.withUTF8 { bytes in measure(bytes) }
        if case .exceeded(let what, let limit, let line) = outcome {
            throw RecordingError(file: file, line: line, kind: .exceedsLimit(what: what, limit: limit))
        }
    }

    private enum Outcome {
        case withinBudget
        case exceeded(what: String, limit: Int, line: Int)
    }

    private static func measure(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let base = bytes.baseAddress else { return .withinBudget }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return .withinBudget }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, base, bytes.count)
        var tally = NodeTally()
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { return .withinBudget }
            defer { yaml_event_delete(&event) }
            let line = Int(truncatingIfNeeded: event.start_mark.line) &+ 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return .withinBudget
            case YAML_SCALAR_EVENT:
                tally.leaf(size: 1, anchor: name(event.data.scalar.anchor))
            case YAML_ALIAS_EVENT:
                tally.leaf(size: name(event.data.alias.anchor).flatMap { tally.anchors[$0] } ?? 1, anchor: nil)
            case YAML_SEQUENCE_START_EVENT:
                tally.open(anchor: name(event.data.sequence_start.anchor))
            case YAML_MAPPING_START_EVENT:
                tally.open(anchor: name(event.data.mapping_start.anchor))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                tally.close()
            default:
                continue
            }
            if tally.total > Limits.maximumYAMLNodes {
                return .exceeded(what: "YAML nodes once aliases are expanded", limit: Limits.maximumYAMLNodes, line: line)
            }
            if tally.depth > Limits.maximumYAMLDepth {
                return .exceeded(what: "levels of YAML nesting", limit: Limits.maximumYAMLDepth, line: line)
            }
        }
    }

    /// An anchor's name (libyaml gives it NUL-terminated), or nil when the node has none.
    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafePointer($0)) }
    }
}

/// The running count of expanded nodes: each open collection's size so far, and each anchored
/// node's size once it is complete.
private struct NodeTally {
    /// Nodes so far, aliases expanded.
    private(set) var total = 0
    /// The expanded size of every anchored node completed so far, by anchor name (a later
    /// definition of a name replaces the earlier, as in YAML).
    private(set) var anchors: [String: Int] = [:]
    private var open: [(anchor: String?, size: Int)] = []

    var depth: Int { open.count }

    mutating func leaf(size: Int, anchor: String?) {
        total += size
        if let anchor { anchors[anchor] = size }
        if !open.isEmpty { open[open.count - 1].size += size }
    }

    mutating func open(anchor: String?) {
        total += 1
        open.append((anchor, 1))
    }

    mutating func close() {
        guard let closed = open.popLast() else { return }
        if let anchor = closed.anchor { anchors[anchor] = closed.size }
        if !open.isEmpty { open[open.count - 1].size += closed.size }
    }
}
