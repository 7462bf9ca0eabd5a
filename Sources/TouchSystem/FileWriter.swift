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
}

/// Writes whole files as touchd writes every file it makes (pictures, recordings, state): all or
/// nothing. The bytes go to a new file beside the target, which then replaces it by `rename`, so
/// a reader sees the old file or the new one, never half of one, and a failed write leaves the old
/// file as it was.
public enum FileWriter {
    /// Writes `bytes` to `path`, replacing what was there.
    /// - Parameter mode: the new file's permissions (the process's umask applies).
    /// - Throws: ``FileWriteError`` naming the file and the failed call.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileWriteError) {
        let temporary = "\(path).new-\(getpid())"
        do throws(SystemError) {
            let fd = try SystemCall.descriptor("open", temporary) {
                open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode)
            }
            var written = 0
            var failure: SystemError?
            while written < bytes.count {
                do throws(SystemError) {
                    let outcome = try SystemCall.posix("write", path) {
                        bytes.withUnsafeBytes { all in
                            let rest = UnsafeRawBufferPointer(rebasing: all[written...])
                            return Glibc.write(fd, rest.baseAddress, rest.count)
                        }
                    }
                    guard case .done(let n) = outcome, n > 0 else { throw SystemError(call: "write", subject: path, errno: EIO) }
                    written += n
                } catch {
                    failure = error
                    break
                }
            }
            if let closing = Descriptor.close(fd, temporary), failure == nil { failure = closing }
            if let failure { throw failure }
            try SystemCall.require("rename", path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw FileWriteError(path: path, reason: "\(error.errnoText) in \(error.call)")
        }
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
            throw FileWriteError(path: path, reason: "\(error.errnoText) in \(error.call)")
        }
    }

    /// Writes UTF-8 text to `path`, as ``write(_:to:mode:)``.
    public static func write(text: String, to path: String, mode: mode_t = 0o644) throws(FileWriteError) {
        try write(Array(text.utf8), to: path, mode: mode)
    }
}
