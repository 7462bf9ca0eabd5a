#if canImport(Glibc)
import Glibc
#endif
import TouchCore

/// Why a file could not be read. The description names the file and the reason, never anything
/// the file contains (a pointercal or layout path could name any file on the system, and error
/// messages reach socket clients and logs).
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operating system refused (no such file, permission denied, ...).
    case system(path: String, SystemError)
    /// The path names something that is not a regular file (a FIFO, a device, a directory, a
    /// socket): reading it could block forever or never end.
    case notRegularFile(path: String, kind: String)
    /// The file is larger than the reader's limit.
    case tooLarge(path: String, limit: Int)
    /// The file is not valid UTF-8: the line and byte offset of the first invalid byte.
    case invalidUTF8(path: String, line: Int, byteOffset: Int)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .system(let path, _), .notRegularFile(let path, _), .tooLarge(let path, _), .invalidUTF8(let path, _, _): path
        }
    }

    /// What is wrong, without the path: `it is a FIFO, not a regular file`.
    public var reason: String {
        switch self {
        case .system(_, let error): error.errnoText
        case .notRegularFile(_, let kind): "it is \(kind), not a regular file"
        case .tooLarge(_, let limit): "it is larger than \(limit) bytes, the most read from such a file"
        case .invalidUTF8(_, _, let offset): "it is not UTF-8 text (byte \(offset))"
        }
    }

    /// `path: reason`, or `path:line: reason` for text that is not UTF-8.
    public var description: String {
        switch self {
        case .invalidUTF8(let path, let line, _): "\(path):\(line): \(reason)"
        default: "\(path): \(reason)"
        }
    }
}

/// Reads whole files as touchd reads every file that comes from outside (layouts, pointercal
/// files, recordings): regular files only, opened without blocking, never more than a limit.
///
/// A FIFO would block the event loop until a writer came; `/dev/zero` would never end; a file
/// growing while read is cut off at the limit and refused, not read without bound.
public enum FileReader {
    /// The bytes of the regular file at `path`, at most `limit` of them.
    /// - Throws: ``FileReadError``.
    public static func read(_ path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        let fd: Int
        do {
            fd = try SystemCall.require("open", path) { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        } catch {
            throw .system(path: path, error)
        }
        defer { close(Int32(truncatingIfNeeded: fd)) }
        let descriptor = Int32(truncatingIfNeeded: fd)
        var info = stat()
        do {
            try SystemCall.require("fstat", path) { fstat(descriptor, &info) }
        } catch {
            throw .system(path: path, error)
        }
        if let kind = nonRegularKind(info.st_mode) { throw .notRegularFile(path: path, kind: kind) }
        if info.st_size > limit { throw .tooLarge(path: path, limit: limit) }
        return try readAll(descriptor, path: path, limit: limit)
    }

    /// The file at `path` as UTF-8 text, at most `limit` bytes.
    /// - Throws: ``FileReadError``, including ``FileReadError/invalidUTF8(path:line:byteOffset:)``.
    public static func readText(_ path: String, limit: Int) throws(FileReadError) -> String {
        let bytes = try read(path, limit: limit)
        if let offset = UTF8Text.firstInvalidOffset(in: bytes) {
            let line = 1 + bytes[..<offset].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            throw .invalidUTF8(path: path, line: line, byteOffset: offset)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func readAll(_ fd: Int32, path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let outcome: SystemCall.Outcome
            do {
                outcome = try Descriptor.read(fd, into: &chunk, path)
            } catch {
                throw .system(path: path, error)
            }
            guard case .done(let n) = outcome, n > 0 else { return bytes }
            guard bytes.count + n <= limit else { throw .tooLarge(path: path, limit: limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// What a non-regular file is, in words; nil for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
