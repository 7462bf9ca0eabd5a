import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Keeping an idle daemon's resident memory to what it uses: reading a layout (at start and on
/// reload) parses, validates and builds far more than the daemon keeps, and runs code it will not
/// run again until the next reload.
///
/// - ``onScratchThread(_:)`` runs that work on a thread of its own. The C library (glibc) gives a
///   thread its own heap (an arena), so what the work lets go is freed together, in that heap,
///   rather than left in holes between what the daemon allocates as it runs, where the allocator
///   would carve its everyday allocations out of it and keep it resident for good.
/// - ``giveBack()`` then returns the heaps' free pages to the kernel (`malloc_trim`) and unmaps the
///   process's code pages (`madvise(MADV_DONTNEED)` on the read-only, executable segments): those
///   are clean pages of files, which the page cache keeps, so the code the daemon runs next is
///   mapped again as it runs (a minor fault, no read from disk) and the code only start-up ran,
///   the argument parser, the TOML parser, the layout's checks, is no longer counted as the
///   daemon's. Writable segments are never touched (their pages hold relocated data), nor the
///   code of a library loaded with text relocations.
///
/// Neither changes what the daemon does. A daemon reads every layout on a scratch thread; it gives
/// back only when its services ask for it (the real daemon's runner), as that acts on the whole
/// process, which tests share with other tests. Both rely on glibc's behaviour; with another C
/// library, or `MALLOC_ARENA_MAX=1`, the scratch thread allocates from the shared heap and only
/// the code pages go back.
public enum MemoryRelease {
    /// What ``giveBack()`` did.
    public struct Report: Equatable, Sendable {
        /// The code segments unmapped.
        public var codeSegments: Int
        /// Their bytes (what was mapped of them is unknown to the process and not read).
        public var codeBytes: Int
        /// Whether `malloc_trim` gave pages back.
        public var heapTrimmed: Bool
    }

    /// Runs `body` on a thread of its own and waits for it: what `body` allocates comes from that
    /// thread's heap (see the type's documentation). Its result or error is this call's. The
    /// thread has an 8 MiB stack, as the main thread has under systemd's default limit. If no
    /// thread can be made, `body` runs on the calling thread (the same result, without the heap
    /// of its own).
    public static func onScratchThread<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var outcome: Result<T, E>?
        withoutActuallyEscaping({ outcome = Result { () throws(E) -> T in try body() } }) { work in
            if !ScratchThread.run(work) { work() }
        }
        // Set once the thread is joined; were it not, the work runs here rather than trap.
        return try (outcome ?? Result { () throws(E) -> T in try body() }).get()
    }

    /// Gives the heaps' free pages back and unmaps the code pages (see the type's documentation).
    /// - Throws: ``SystemError`` from `madvise` (the segments before it were unmapped; none is
    ///   left in a state other than "mapped again when run").
    @discardableResult
    public static func giveBack() throws(SystemError) -> Report {
        let trimmed = touchd_malloc_trim() == 1
        let segments = codeSegments()
        var bytes = 0
        for segment in segments {
            try SystemCall.require("madvise", "MADV_DONTNEED on code") {
                madvise(UnsafeMutableRawPointer(bitPattern: segment.start), segment.length, MADV_DONTNEED)
            }
            bytes &+= segment.length
        }
        return Report(codeSegments: segments.count, codeBytes: bytes, heapTrimmed: trimmed)
    }

    /// A read-only, executable segment's whole pages: its first address and its length in bytes.
    public struct CodeSegment: Equatable, Sendable {
        public var start: UInt
        public var length: Int

        /// Whether `address` lies in the segment.
        public func contains(_ address: UInt) -> Bool { address >= start && address - start < UInt(clamping: length) }
    }

    /// The read-only, executable segments of the program and of the libraries it has loaded (the
    /// kernel's vDSO left out), as the whole pages inside each: what ``giveBack()`` unmaps.
    public static func codeSegments() -> [CodeSegment] {
        var capacity = 64
        while true {
            var starts = [UInt](repeating: 0, count: capacity)
            var lengths = [Int](repeating: 0, count: capacity)
            let count = Int(touchd_code_segments(&starts, &lengths, Int32(clamping: capacity)))
            if count <= capacity {
                return (0..<max(count, 0)).map { CodeSegment(start: starts[$0], length: lengths[$0]) }
            }
            capacity = count
        }
    }
}

/// A thread started and joined at once, for ``MemoryRelease/onScratchThread(_:)``.
private enum ScratchThread {
    /// The work handed to the thread; retained for it until it runs.
    final class Work: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static let stackBytes = 8 << 20

    /// Runs `body` on a new thread and waits for it; false (and `body` not run) when no thread
    /// could be made. Joining a thread just made joinable cannot fail.
    static func run(_ body: @escaping () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        _ = pthread_attr_setstacksize(&attributes, stackBytes)
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        _ = pthread_join(thread, nil)
        return true
    }
}
