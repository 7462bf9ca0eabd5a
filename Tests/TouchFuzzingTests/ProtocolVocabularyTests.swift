import Foundation
import Testing

@testable import TouchFuzzing
import TouchProtocol

/// Every message type and error code the daemon can write is documented in `docs/protocol.md` and
/// known to the request target's check, so a new one cannot slip past either (the fuzzer would
/// report it as undocumented, and a client would not know it).
@Suite(.timeLimit(.minutes(10))) struct ProtocolVocabularyTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The Swift sources' text.
    static func sources() throws -> String {
        let files = FileManager.default.enumerator(atPath: root + "/Sources")?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.map { try String(contentsOfFile: root + "/Sources/" + $0, encoding: .utf8) }.joined(separator: "\n")
    }

    static func matches(_ pattern: String, in text: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    @Test func everyMessageTypeIsDocumentedAndChecked() throws {
        let text = try Self.sources()
        let types = try Self.matches(#"\("type", (?:\.string\()?"([a-z_]+)""#, in: text)
            .union(try Self.matches(#"member\("type"\); w\.(?:string\("|literal\(#"")([a-z_]+)""#, in: text))
        let docs = try String(contentsOfFile: Self.root + "/docs/protocol.md", encoding: .utf8)
        #expect(types.count > 15, "the patterns still find the message types: \(types.sorted())")
        for type in types.sorted() {
            #expect(ReplyCheck.types.contains(type), "\(type) is unknown to the request target's check")
            #expect(docs.contains("\"type\":\"\(type)\"") || docs.contains("`\(type)`"), "\(type) is not in docs/protocol.md")
        }
    }

    /// Every code of ``RequestErrorCode`` (the documented list: `RequestErrorCodeTests`) is one the
    /// daemon gives somewhere, and one the request target's check knows.
    @Test func everyErrorCodeIsGivenAndChecked() throws {
        let text = try Self.sources()
        for code in RequestErrorCode.allCases {
            #expect(text.contains(".\(code)"), "\(code.rawValue) is given nowhere in Sources/")
            #expect(ReplyCheck.errorCodes.contains(code.rawValue), "\(code.rawValue) is unknown to the request target's check")
        }
    }
}
