import CTOML
import CTOMLSupport
import TouchCore

/// A TOML syntax error as toml++ reports it: its description and where it begins.
struct TOMLSyntaxError: Error, CustomStringConvertible {
    var description: String
    var line: Int
    var column: Int
}

/// Reads TOML text into ``TOMLNode`` values with toml++, through TOMLKit's C layer directly.
///
/// TOMLKit 0.6.0's Swift layer never frees what it asks its C layer for: the parsed document (a
/// `new` C++ table with every node in it), the parse-error buffer, every table's key list and
/// its strings, and every scalar (each `nodeAs...` result is a fresh `malloc`). A daemon that
/// reloads its layout lost the whole parsed document each time (about 50 KB of resident memory
/// per reload of the kiosk layout). Here every allocation is released once read, and the
/// document once converted: loading a layout leaves nothing behind.
///
/// The conversion stops at ``Limits/maximumLayoutNesting`` (``SourceLocator`` refuses deeper text
/// before it is parsed), leaving deeper values empty.
enum TOMLDocumentReader {
    /// The document's root table.
    /// - Throws: ``TOMLSyntaxError`` for text that is not TOML.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> [String: TOMLNode] {
        let failure = UnsafeMutablePointer<CTOMLParseError>.allocate(capacity: 1)
        defer { failure.deallocate() }
        guard let root = text.withCString({ tableCreateFromString($0, failure) }) else {
            let error = failure.pointee
            defer { touchd_c_free(error.description) }
            throw TOMLSyntaxError(
                description: String(cString: error.description), line: Int(error.source.begin.line), column: Int(error.source.begin.column))
        }
        defer { release(root) }
        return table(root, depth: 1)
    }

    /// Deletes a parsed document: every node, then the root table (see `ctomlsupport.h`: the C
    /// layer has no call for it).
    private static func release(_ root: OpaquePointer) {
        touchd_toml_table_delete(UnsafeMutableRawPointer(root))
    }

    private static func table(_ table: OpaquePointer, depth: Int) -> [String: TOMLNode] {
        guard depth <= Limits.maximumLayoutNesting else { return [:] }
        let count = tableSize(table)
        let keys = tableGetKeys(table)
        defer {
            for index in 0..<count { touchd_c_free(keys[index]) }
            touchd_c_free(keys)
        }
        var result: [String: TOMLNode] = [:]
        for index in 0..<count {
            if let node = tableGetNode(table, keys[index]) { result[String(cString: keys[index])] = convert(node, depth: depth) }
        }
        return result
    }

    private static func array(_ array: OpaquePointer, depth: Int) -> [TOMLNode] {
        guard depth <= Limits.maximumLayoutNesting else { return [] }
        return (0..<arraySize(array)).map { convert(arrayGetNode(array, Int64(truncatingIfNeeded: $0)), depth: depth) }
    }

    /// A node inside a table or array at `depth`: its own tables and arrays are one deeper.
    private static func convert(_ node: OpaquePointer, depth: Int) -> TOMLNode {
        switch nodeType(node) {
        case .table: .table(nodeAsTable(node).map { table($0, depth: depth + 1) } ?? [:])
        case .array: .array(nodeAsArray(node).map { array($0, depth: depth + 1) } ?? [])
        case .string: .string(taking(nodeAsString(node)) { String(cString: $0) } ?? "")
        case .integer: .integer(taking(nodeAsInt(node)) { $0.pointee } ?? 0)
        case .floatingPoint: .float(taking(nodeAsDouble(node)) { $0.pointee } ?? 0)
        case .boolean: .bool(taking(nodeAsBool(node)) { $0.pointee } ?? false)
        case .date: .dateTime(taking(nodeAsDate(node)) { spell($0.pointee) } ?? "", .date)
        case .timeType: .dateTime(taking(nodeAsTime(node)) { spell($0.pointee) } ?? "", .time)
        case .dateTime: .dateTime(taking(nodeAsDateTime(node)) { spell($0.pointee) } ?? "", .dateTime)
        }
    }

    /// `body` applied to a value the C layer allocated for the caller, which is freed after.
    private static func taking<T, R>(_ pointer: UnsafePointer<T>?, _ body: (UnsafePointer<T>) -> R) -> R? {
        guard let pointer else { return nil }
        defer { touchd_c_free(pointer) }
        return body(pointer)
    }

    private static func spell(_ date: CTOMLDate) -> String {
        pad(Int(date.year), 4) + "-" + pad(Int(date.month), 2) + "-" + pad(Int(date.day), 2)
    }

    private static func spell(_ time: CTOMLTime) -> String {
        var text = pad(Int(time.hour), 2) + ":" + pad(Int(time.minute), 2) + ":" + pad(Int(time.second), 2)
        if time.nanoSecond > 0 {
            var fraction = pad(Int(time.nanoSecond), 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }

    /// `date`T`time`, then `Z` or `±hh:mm` when it has an offset (which is deleted too).
    private static func spell(_ dateTime: CTOMLDateTime) -> String {
        var text = spell(dateTime.date) + "T" + spell(dateTime.time)
        if let offset = dateTime.offset {
            defer { touchd_cxx_delete(offset) }  // made with `new`
            let minutes = Int(offset.pointee.minutes)
            text += minutes == 0 ? "Z" : (minutes < 0 ? "-" : "+") + pad(abs(minutes) / 60, 2) + ":" + pad(abs(minutes) % 60, 2)
        }
        return text
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
