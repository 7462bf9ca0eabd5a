import Testing
import TouchCore

@testable import TouchLayout

#if canImport(Glibc)
    import Glibc
#endif

/// Seeded mutations of the bundled layouts: bytes flipped, inserted and deleted, deep nesting
/// and long lines spliced in. Whatever the text, the loader never crashes, and either loads a
/// layout whose application builds, or reports problems that each have a line (but for the few
/// about the whole file).
@Suite(.timeLimit(.minutes(10))) struct MutationTests {
    static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004]
    /// Mutated texts per seed: `TOUCHD_MUTATION_ROUNDS` for a longer hunt.
    static let rounds = getenv("TOUCHD_MUTATION_ROUNDS").flatMap { Int(String(cString: $0)) } ?? 100

    /// The bundled layouts and the test suite's one with every key.
    static func originals() throws -> [[UInt8]] {
        var texts = [Array(fullLayout.utf8)]
        for name in ["kiosk.toml", "media-kiosk.toml", "seed-experiment.toml"] {
            texts.append(try readBytes(configPath(name)))
        }
        return texts
    }

    static func readBytes(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw WriteError() }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    /// Bytes that matter to TOML's structure, and a few that do not.
    static let interesting: [UInt8] = Array("[]{}\"'=.,#\n \\-+_0123456789.eExo:TZ\t\r".utf8) + [0x80, 0xC3, 0xE2, 0xFF, 0x00]

    /// One mutation of `bytes`, chosen by `random`.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        var out = bytes
        func position() -> Int { Int(random.next() % UInt64(out.count + 1)) }
        func byte() -> UInt8 {
            random.next() % 4 == 0 ? UInt8(truncatingIfNeeded: random.next()) : interesting[Int(random.next() % UInt64(interesting.count))]
        }
        switch random.next() % 8 {
        case 0, 1:  // flip a byte
            if !out.isEmpty { out[Int(random.next() % UInt64(out.count))] = byte() }
        case 2:  // insert bytes
            out.insert(contentsOf: (0..<(1 + random.next() % 4)).map { _ in byte() }, at: position())
        case 3:  // delete a run
            if !out.isEmpty {
                let start = Int(random.next() % UInt64(out.count))
                out.removeSubrange(start..<min(out.count, start + 1 + Int(random.next() % 8)))
            }
        case 4:  // deep nesting of one kind
            let depth = Int(random.next() % 2_000)
            let opener: [UInt8] = [Array("[".utf8), Array("{a=".utf8), Array("a.".utf8), Array("[[".utf8)][Int(random.next() % 4)]
            out.insert(contentsOf: Array(repeating: opener, count: depth).flatMap { $0 }, at: position())
        case 5:  // a long line
            let filler = interesting[Int(random.next() % UInt64(interesting.count))]
            out.insert(contentsOf: [UInt8](repeating: filler, count: Int(random.next() % 20_000)), at: position())
        case 6:  // duplicate a slice
            let a = position()
            let b = position()
            out.insert(contentsOf: Array(out[min(a, b)..<max(a, b)]), at: position())
        default:  // swap two lines' worth of bytes
            let a = position()
            out.insert(contentsOf: out[a..<min(out.count, a + 40)], at: position())
        }
        return out
    }

    @Test(arguments: seeds)
    func mutatedLayoutsLoadOrSayWhere(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let originals = try Self.originals()
        for round in 0..<Self.rounds {
            var bytes = originals[Int(random.next() % UInt64(originals.count))]
            for _ in 0..<(1 + random.next() % 3) { bytes = Self.mutate(bytes, &random) }
            let path = "/tmp/touchd-mutation-\(seed)-current.toml"
            try writeFile(path, bytes)
            let context = "seed \(seed), round \(round) (the text is in \(path))"
            do throws(LayoutErrors) {
                let document = try LayoutLoader.load(path: path)
                #expect(throws: Never.self, "\(context)") { _ = try document.makeApplication(file: path) }
            } catch {
                #expect(!error.issues.isEmpty, "\(context)")
                for issue in error.issues where issue.keyPath != "window" && issue.kind != .unreadableFile {
                    #expect(issue.line != nil, "\(context): \(issue)")
                }
            }
            removeFile(path)
        }
    }
}
