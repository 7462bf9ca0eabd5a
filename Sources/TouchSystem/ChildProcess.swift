import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Runs another program to its end: how touchd's tools call helpers such as `rsvg-convert`.
public enum ChildProcess {
    /// What a finished program left behind.
    public struct Outcome: Hashable, Sendable {
        /// Its exit status; 128 + the signal's number when a signal ended it.
        public var status: Int32
        /// What it wrote to its standard error (at most 64 KiB).
        public var standardError: String
    }

    /// The first executable file named `name` in the directories of `PATH` (or of
    /// `/usr/local/bin:/usr/bin:/bin` when `PATH` is unset); `nil` when there is none.
    public static func find(_ name: String) -> String? {
        let search = ProcessContext.environment("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in search.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `program` with `arguments`, writes `input` to its standard input, and waits for it.
    /// Its standard output is discarded. The program must read all of its input before it writes
    /// much to standard error (as a converter does), or both would wait on the other.
    /// - Throws: ``SystemError`` when the program cannot be started or waited for.
    public static func run(_ program: String, _ arguments: [String], input: [UInt8]) throws(SystemError) -> Outcome {
        let (inRead, inWrite) = try pipe(program)
        let (errRead, errWrite) = try pipe(program)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inRead, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errWrite, 2)
        var pid = pid_t()
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        Descriptor.close(inRead)
        Descriptor.close(errWrite)
        guard spawned == 0 else {
            Descriptor.close(inWrite)
            Descriptor.close(errRead)
            throw SystemError(call: "posix_spawn", subject: program, errno: spawned)
        }
        writeAll(input, to: inWrite)
        Descriptor.close(inWrite)
        let errors = readAtMost(64 * 1024, from: errRead)
        Descriptor.close(errRead)
        var status: Int32 = 0
        try SystemCall.require("waitpid", program) { waitpid(pid, &status, 0) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which do not import.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: exitStatus, standardError: String(decoding: errors, as: UTF8.self))
    }

    private static func pipe(_ program: String) throws(SystemError) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        // Neither end leaks into the child but through the file actions' dup2, nor into a child
        // another thread spawns meanwhile: both are made close-on-exec at once (`pipe2`).
        try SystemCall.require("pipe2", program) { touchd_pipe_cloexec(&ends) }
        return (ends[0], ends[1])
    }

    /// Writes as much of `bytes` as the reader takes; a reader that goes away early ends it
    /// (`EPIPE`: the caller learns why from the program's status and standard error). `SIGPIPE` is
    /// ignored from then on in the calling process (a tool, never the daemon), so that such a
    /// reader fails the write instead of ending the process.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        signal(SIGPIPE, SIG_IGN)
        var written = 0
        while written < bytes.count {
            let outcome = try? SystemCall.posix("write", "pipe") {
                bytes.withUnsafeBytes { all in
                    let rest = UnsafeRawBufferPointer(rebasing: all[written...])
                    return Glibc.write(fd, rest.baseAddress, rest.count)
                }
            }
            guard case .done(let n) = outcome, n > 0 else { return }
            written += n
        }
    }

    private static func readAtMost(_ limit: Int, from fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let outcome = try? Descriptor.read(fd, into: &chunk, "pipe")
            guard case .done(let n) = outcome, n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<min(n, limit - bytes.count)])
        }
        return bytes
    }
}
