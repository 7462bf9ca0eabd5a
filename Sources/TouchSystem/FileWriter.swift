#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written: the file and the reason, as `path: reason`.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file that was to be written.
    public var path: String
    /// What went wrong: `Permission denied (EACCES) in open`.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): cannot write: \(reason)" }

    /// The failed call writing `path`: `Permission denied (EACCES) in open`.
    init(path: String, failure: SystemError) {
        self.init(path: path, reason: "\(failure.errnoText) in \(failure.call)")
    }
}

/// Writes whole files as touchd writes every file it makes (pictures, recordings, state): all or
/// nothing, and durable. The bytes go to a new file beside the target under a name nobody can
/// predict (`NAME.new-` and 16 random hexadecimal digits, created exclusively: a file left there by
/// an earlier crash or by someone else is never written through and never blocks a write), which
/// is flushed to the disk (`fsync`), its directory with it, and then replaces the target by
/// `rename`, after which the directory is flushed again. A reader sees the old file or the new
/// one, never half of one, and a power cut at any moment leaves one of them, never an empty file;
/// a failed write leaves the old file as it was.
public enum FileWriter {
    /// How many names are tried before a write gives up (each is new and random: a clash is a
    /// stale file of the same random name, or someone creating files there on purpose).
    static let temporaryNameAttempts = 16

    /// Writes `bytes` to `path`, replacing what was there.
    /// - Parameter mode: the new file's permissions (the process's umask applies).
    /// - Throws: ``FileWriteError`` naming the file and the failed call.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileWriteError) {
        var temporary: String?
        do throws(SystemError) {
            let (fd, name) = try createTemporary(beside: path, mode: mode)
            temporary = name
            var failure = writeAll(bytes, to: fd, path: path)
            if failure == nil { failure = syncFile(fd, path) }
            if let closing = Descriptor.close(fd, name), failure == nil { failure = closing }
            if let failure { throw failure }
            let directory = directory(of: path)
            try syncDirectory(directory)
            try SystemCall.require("rename", path) { rename(name, path) }
            temporary = nil
            try syncDirectory(directory)
        } catch {
            if let temporary { unlink(temporary) }
            throw FileWriteError(path: path, failure: error)
        }
    }

    /// Puts in `path`'s place the file `produce` writes at a new path beside it (a program that
    /// writes its output to a path of its own): `path` is replaced only when `produce` succeeds,
    /// and is left as it was otherwise.
    /// - Throws: ``FileWriteError`` from `produce`, or naming the file and the failed call.
    public static func replace(_ path: String, mode: mode_t = 0o644, producing produce: (String) throws(FileWriteError) -> Void) throws(FileWriteError) {
        let temporary = try emptyTemporary(beside: path, mode: mode)
        do throws(FileWriteError) {
            try produce(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        do throws(SystemError) {
            let directory = directory(of: path)
            try SystemCall.require("rename", path) { rename(temporary, path) }
            try syncDirectory(directory)
        } catch {
            unlink(temporary)
            throw FileWriteError(path: path, failure: error)
        }
    }

    /// Checks, changing nothing, that ``write(_:to:mode:)`` could write `path` now: a file can be
    /// made beside it, and it is not a directory. For a tool that gathers what it will write for a
    /// while (a recording) and must not find out at the end.
    /// - Throws: ``FileWriteError`` naming the file and what is wrong.
    public static func checkWritable(_ path: String) throws(FileWriteError) {
        unlink(try emptyTemporary(beside: path, mode: 0o600))
        // A directory is never replaced by a file (rename would refuse it at the end).
        if let status = try? FileStatus.of(path), status.kind == .directory {
            throw FileWriteError(path: path, reason: "it is a directory: expected a file's path")
        }
    }

    /// The name of a new, empty file beside `path` (``createTemporary(beside:mode:)``, closed).
    private static func emptyTemporary(beside path: String, mode: mode_t) throws(FileWriteError) -> String {
        do throws(SystemError) {
            let (fd, name) = try createTemporary(beside: path, mode: mode)
            Descriptor.close(fd, name)
            return name
        } catch {
            throw FileWriteError(path: path, failure: error)
        }
    }

    /// A new file beside `path` under a random name, opened for writing: created here, never one
    /// that was there.
    static func createTemporary(beside path: String, mode: mode_t) throws(SystemError) -> (Int32, String) {
        var attempt = 0
        while true {
            attempt += 1
            var generator = SystemRandomNumberGenerator()
            let suffix = String(generator.next(), radix: 16)
            let name = "\(path).new-\(String(repeating: "0", count: max(0, 16 - suffix.utf8.count)))\(suffix)"
            do throws(SystemError) {
                let fd = try SystemCall.descriptor("open", name) {
                    open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, mode)
                }
                return (fd, name)
            } catch where error.errno == EEXIST && attempt < temporaryNameAttempts {
                continue
            }
        }
    }

    /// Writes every byte to `fd`; the error, if any.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) -> SystemError? {
        var written = 0
        while written < bytes.count {
            do throws(SystemError) {
                let outcome = try SystemCall.posix("write", path) {
                    bytes.withUnsafeBytes { all in
                        let rest = UnsafeRawBufferPointer(rebasing: all[written...])
                        return Glibc.write(fd, rest.baseAddress, rest.count)
                    }
                }
                guard case .done(let n) = outcome, n > 0 else { return SystemError(call: "write", subject: path, errno: EIO) }
                written += n
            } catch {
                return error
            }
        }
        return nil
    }

    private static func syncFile(_ fd: Int32, _ subject: String) -> SystemError? {
        do throws(SystemError) {
            try SystemCall.require("fsync", subject) { fsync(fd) }
            return nil
        } catch {
            return error
        }
    }

    /// Flushes a directory's entries to the disk (a file created or renamed in it).
    private static func syncDirectory(_ directory: String) throws(SystemError) {
        let fd = try SystemCall.descriptor("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        let failure = syncFile(fd, directory)
        Descriptor.close(fd, directory)
        if let failure { throw failure }
    }

    /// The directory a path names a file in: `.` for a bare name, `/` for one at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Removes a file this process wrote (a metrics file when the daemon stops); a file that is
    /// not there is no error.
    /// - Throws: ``FileWriteError`` naming the file and the failed call.
    public static func remove(_ path: String) throws(FileWriteError) {
        do throws(SystemError) {
            try SystemCall.require("unlink", path) { unlink(path) }
        } catch where error.isMissing {
            return
        } catch {
            throw FileWriteError(path: path, failure: error)
        }
    }

    /// Writes UTF-8 text to `path`, as ``write(_:to:mode:)``.
    public static func write(text: String, to path: String, mode: mode_t = 0o644) throws(FileWriteError) {
        try write(Array(text.utf8), to: path, mode: mode)
    }
}
