#if canImport(Glibc)
import Glibc
#endif

/// What the kernel says of a file (`stat`, `lstat`, `fstat`): its kind, its permissions, and a
/// stamp that changes whenever the file is replaced, written or has its mode changed.
public struct FileStatus: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case regular, directory, socket, other }

    public var kind: Kind
    /// The permission bits (`0o7777` of the mode).
    public var permissions: UInt32
    /// The inode, size, mode and modification and change times, for telling a changed file.
    public var stamp: [Int]

    /// The file at `path` (following a symbolic link unless `followingLinks` is false).
    /// - Throws: ``SystemError`` from `stat` or `lstat` (``SystemError/isMissing``: no such file).
    public static func of(_ path: String, followingLinks: Bool = true) throws(SystemError) -> FileStatus {
        var info = stat()
        if followingLinks {
            try SystemCall.require("stat", path) { stat(path, &info) }
        } else {
            try SystemCall.require("lstat", path) { lstat(path, &info) }
        }
        return FileStatus(info)
    }

    /// The open file `fd`.
    /// - Throws: ``SystemError`` from `fstat`.
    public static func of(descriptor fd: Int32) throws(SystemError) -> FileStatus {
        var info = stat()
        try SystemCall.require("fstat", "fd \(fd)") { fstat(fd, &info) }
        return FileStatus(info)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        permissions = UInt32(truncatingIfNeeded: info.st_mode & 0o7777)
        stamp = [
            Int(truncatingIfNeeded: info.st_ino), Int(truncatingIfNeeded: info.st_size), Int(truncatingIfNeeded: info.st_mode),
            info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
        ]
    }

    /// Removes the file at `path` (not a directory).
    /// - Throws: ``SystemError`` from `unlink`.
    public static func remove(_ path: String) throws(SystemError) {
        try SystemCall.require("unlink", path) { unlink(path) }
    }

    /// Makes the directory `path` with `permissions` (less the umask).
    /// - Throws: ``SystemError`` from `mkdir` (`EEXIST`: it is there already).
    public static func makeDirectory(_ path: String, permissions: UInt32) throws(SystemError) {
        try SystemCall.require("mkdir", path) { mkdir(path, mode_t(permissions)) }
    }
}

/// The process's standard error, written whole without buffering (log lines, and `print(_:to:)`).
public struct StandardError: TextOutputStream {
    /// The stream, for `print(_:to:)`.
    public init() {}

    /// Writes `string` whole, unbuffered.
    public mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { Self.write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes`, as much as the descriptor takes (a short write or an error is given up:
    /// there is nowhere left to report it).
    public static func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            guard case .done(let n)? = try? SystemCall.posix("write", "standard error", { Glibc.write(2, rest.baseAddress, rest.count) }), n > 0 else {
                return
            }
            offset += n
        }
    }
}

/// The process's standard output as `print` writes it (the C library's buffered `stdout`).
public enum StandardOutput {
    /// Writes out what `print` buffered in every C stream, so that a reader (a pipe, a file) has
    /// each line at once.
    public static func flush() { fflush(nil) }
}

/// The wall clock, for what people read (a log line's time): never for timing, which the
/// monotonic clock does (``MonotonicClock``).
public enum WallClock {
    /// Now in UTC as `2026-11-28T11:28:48Z`.
    public static func timestampUTC() -> String {
        var now = time(nil)
        var fields = tm()
        gmtime_r(&now, &fields)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &fields)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
