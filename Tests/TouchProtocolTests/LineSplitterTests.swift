import Testing
import TouchProtocol

/// The line framing, checked the way SwiftNIO's `ByteToMessageDecoderVerifier` checks a decoder:
/// one stream fed in one chunk, byte by byte and cut at random places gives the same lines, and the
/// same refusal of a line that is too long.
@Suite(.timeLimit(.minutes(10))) struct LineSplitterTests {
    /// What a splitter made of a stream: its lines, and whether it stopped at a line too long.
    struct Outcome: Equatable {
        var lines: [[UInt8]] = []
        var tooLong = false
    }

    /// Feeds `stream` cut into `chunks` (lengths), taking every line as soon as it is complete.
    static func split(_ stream: [UInt8], chunks: [Int], maximum: Int) -> Outcome {
        var splitter = LineSplitter(maximumLineLength: maximum)
        var outcome = Outcome()
        var start = 0
        for length in chunks {
            splitter.append(stream[start..<start + length])
            start += length
            do {
                while let line = try splitter.nextLine() { outcome.lines.append(line) }
            } catch {
                #expect(error.maximumLineLength == maximum)
                outcome.tooLong = true
                return outcome
            }
            // Never more than the longest line and the last chunk are held.
            #expect(splitter.bufferedByteCount <= maximum + length)
        }
        return outcome
    }

    /// The lines a stream holds by definition: up to the first line over the bound.
    static func expected(_ stream: [UInt8], maximum: Int) -> Outcome {
        var outcome = Outcome()
        var pieces = stream.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let unfinished = pieces.removeLast()
        for piece in pieces {
            if piece.count > maximum {
                outcome.tooLong = true
                return outcome
            }
            outcome.lines.append(piece)
        }
        outcome.tooLong = unfinished.count > maximum
        return outcome
    }

    @Test func everyChunkingGivesTheSameLines() {
        let seed: UInt64 = 0x5EED_0004
        var random = SeededRandom(seed: seed)
        let maximum = 40
        for round in 0..<400 {
            var stream: [UInt8] = []
            for _ in 0..<random.next(below: 30) {
                // Mostly short lines, some empty, some exactly at the bound, now and then one over it.
                let length = [0, 1, random.next(below: maximum), maximum, maximum, maximum + 1][random.next(below: round % 5 == 0 ? 6 : 5)]
                stream += (0..<length).map { _ in UInt8(ascii: "a") + UInt8(random.next(below: 26)) }
                stream.append(UInt8(ascii: "\n"))
            }
            stream += (0..<random.next(below: maximum + 3)).map { _ in UInt8(ascii: "x") }
            let expected = Self.expected(stream, maximum: maximum)
            let whole = Self.split(stream, chunks: [stream.count], maximum: maximum)
            let bytes = Self.split(stream, chunks: Array(repeating: 1, count: stream.count), maximum: maximum)
            var cuts: [Int] = []
            var left = stream.count
            while left > 0 {
                let length = min(left, 1 + random.next(below: 2 * maximum))
                cuts.append(length)
                left -= length
            }
            let randomly = Self.split(stream, chunks: cuts, maximum: maximum)
            #expect(whole == expected, "seed \(seed) round \(round)")
            #expect(bytes == expected, "seed \(seed) round \(round)")
            #expect(randomly == expected, "seed \(seed) round \(round), chunks \(cuts)")
        }
    }

    @Test func aLineTooLongIsReportedAsSoonAsItIsOverTheBoundAndNeverCut() throws {
        var splitter = LineSplitter(maximumLineLength: 8)
        splitter.append(Array("ok\n12345678".utf8))
        #expect(try splitter.nextLine() == Array("ok".utf8))
        #expect(try splitter.nextLine() == nil, "eight bytes may still end in a newline")
        splitter.append([UInt8(ascii: "9")])
        #expect(throws: LineTooLongError(maximumLineLength: 8)) { try splitter.nextLine() }
        // It stays refused: no part of it, and nothing after it, comes out as a line.
        splitter.append(Array("\nnext\n".utf8))
        #expect(throws: LineTooLongError(maximumLineLength: 8)) { try splitter.nextLine() }
        #expect(splitter.bufferedByteCount <= 8 + 6)

        var exact = LineSplitter(maximumLineLength: 8)
        exact.append(Array("12345678\n\n".utf8))
        #expect(try exact.nextLine() == Array("12345678".utf8))
        #expect(try exact.nextLine() == [])
        #expect(try exact.nextLine() == nil)
        #expect(exact.bufferedByteCount == 0)
    }
}
