import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, on what, and the errno text.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var subject: String
    public var errno: Int32

    public init(_ call: String, _ subject: String = "", errno: Int32 = Glibc.errno) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    public var description: String {
        let text = String(cString: strerror(errno))
        return subject.isEmpty ? "\(call): \(text)" : "\(call) \(subject): \(text)"
    }
}

/// Runs a system call, retrying on EINTR; throws ``SystemError`` naming the call on failure.
@discardableResult
func syscall(_ name: String, _ subject: String = "", _ body: () -> Int32) throws(SystemError) -> Int32 {
    while true {
        let r = body()
        if r >= 0 { return r }
        if errno == EINTR { continue }
        throw SystemError(name, subject)
    }
}
