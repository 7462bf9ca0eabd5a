#if canImport(Glibc)
import Glibc
#endif

/// Whether standard error is the journal stream systemd connected the process to.
///
/// systemd sets `JOURNAL_STREAM` to the `DEVICE:INODE` of the stream it gave the service; a child
/// inherits the variable even when its standard error goes elsewhere (a file, a pipe), so, as
/// systemd.exec(5) says, a program writes journal priorities (`<3>...`) only when its standard
/// error is that very stream.
public enum JournalStream {
    /// Whether descriptor `fd` (standard error by default) is the stream `value` (the variable's
    /// text, `nil` when it is not set) names.
    public static func isConnected(_ fd: Int32 = 2, to value: String?) -> Bool {
        guard let value, let colon = value.firstIndex(of: ":"),
            let device = dev_t(value[..<colon]), let inode = ino_t(value[value.index(after: colon)...])
        else { return false }
        var info = stat()
        guard (try? SystemCall.require("fstat", "standard error") { fstat(fd, &info) }) != nil else { return false }
        return info.st_dev == device && info.st_ino == inode
    }

    /// Whether this process's standard error is its journal stream.
    public static var isStandardError: Bool {
        isConnected(2, to: ProcessContext.environment("JOURNAL_STREAM"))
    }
}
