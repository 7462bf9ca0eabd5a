import Testing
import TouchCore
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// Files are read as files: regular ones only, never blocking, never without bound, and an error
/// never repeats what the file holds.
@Suite(.timeLimit(.minutes(10))) struct FileReaderTests {
    let directory: String

    init() {
        var template = Array("/tmp/touchd-filereader.XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        let file = fopen(path, "w")!
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        return path
    }

    @Test func aRegularFileIsReadWhole() throws {
        let text = String(repeating: "0 1 2 3 4 5 6\n", count: 10_000)
        let path = write("pointercal", Array(text.utf8))
        #expect(try FileReader.readText(path, limit: 1 << 20) == text)
    }

    @Test func aFileOverTheLimitIsRefusedWithoutItsContents() {
        let path = write("big", Array("password=hunter2 and more".utf8))
        do {
            _ = try FileReader.read(path, limit: 8)
            Issue.record("no error")
        } catch {
            #expect(error == .tooLarge(path: path, limit: 8))
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func aFIFOIsRefusedAtOnceInsteadOfBlocking() {
        let path = directory + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: FileReadError.notRegularFile(path: path, kind: "a FIFO")) { try FileReader.read(path, limit: 100) }
    }

    @Test func devicesAndDirectoriesAreRefused() {
        #expect(throws: FileReadError.notRegularFile(path: "/dev/zero", kind: "a character device")) {
            try FileReader.read("/dev/zero", limit: 100)
        }
        #expect(throws: FileReadError.notRegularFile(path: directory, kind: "a directory")) {
            try FileReader.read(directory, limit: 100)
        }
    }

    @Test func aMissingFileSaysSoWithItsPath() {
        let path = directory + "/absent.toml"
        do {
            _ = try FileReader.read(path, limit: 100)
            Issue.record("no error")
        } catch {
            #expect(error.description == "\(path): No such file or directory (ENOENT)")
        }
    }

    @Test func invalidUTF8IsReportedWithItsLineAndOffset() {
        let path = write("bad.toml", Array("a = 1\nb = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8))
        #expect(throws: FileReadError.invalidUTF8(path: path, line: 2, byteOffset: 11)) { try FileReader.readText(path, limit: 100) }
    }

    @Test func theFirstInvalidByteIsFoundAfterMultibyteCharacters() {
        #expect(UTF8Text.firstInvalidOffset(in: Array("héllo ✓".utf8)) == nil)
        #expect(UTF8Text.firstInvalidOffset(in: Array("é✓".utf8) + [0xFF]) == 5)
        #expect(UTF8Text.firstInvalidOffset(in: [0x80] as [UInt8]) == 0)
        // Against the standard library's strict decoder run over the whole input: random bytes
        // weighted towards UTF-8's lead and continuation bytes, and valid text cut anywhere.
        var generator = SeededBytes(seed: 20261127)
        let valid = Array("aé✓€𝄞 z\u{10FFFF}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}".utf8)
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(generator.next() % 12) {
                switch generator.next() % 4 {
                case 0: bytes.append(generator.next())
                case 1: bytes.append(0x80 | generator.next() & 0x3F)
                case 2: bytes.append(0xC0 | generator.next() & 0x3F)
                default: bytes.append(generator.next() & 0x7F)
                }
            }
            if round % 3 == 0 { bytes = Array(valid.prefix(Int(generator.next()) % (valid.count + 1))) + bytes }
            #expect(UTF8Text.firstInvalidOffset(in: bytes) == Self.strictDecoderOffset(bytes), "\(bytes)")
        }

    }

    /// The offset of the first ill-formed sequence as the standard library's decoder finds it,
    /// decoding the whole input in one pass.
    static func strictDecoderOffset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

/// A small seeded generator of bytes (xorshift), so the comparison repeats exactly.
struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt8 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 32)
    }

}
