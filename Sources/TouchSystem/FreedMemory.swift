import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The memory the process has freed but the C library keeps for later allocations.
public enum FreedMemory {
    /// Gives the pages of freed memory back to the kernel (`malloc_trim`): after loading a layout,
    /// the parser's and the loader's temporary allocations are free, yet their pages stay resident
    /// in the heap until something is allocated there again, which an idle daemon may never do. It
    /// cannot fail; whether anything was given back does not matter.
    public static func giveBack() { _ = malloc_trim(0) }
}
