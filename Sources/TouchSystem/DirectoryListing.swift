#if canImport(Glibc)
import Glibc
#endif

/// Lists directories as touchd lists them (to find a recording's companion description file):
/// names only, without `.` and `..`, never more than a limit.
public enum DirectoryListing {
    /// The names of the entries of the directory at `path`, in the order the system gives them,
    /// at most `limit` of them.
    /// - Throws: ``FileReadError/system(path:_:)`` when the directory cannot be opened.
    public static func names(in path: String, limit: Int) throws(FileReadError) -> [String] {
        let directory: OpaquePointer
        do {
            directory = try SystemCall.pointer("opendir", path) { opendir(path) }
        } catch {
            throw .system(path: path, error)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(directory) {
            // The name is NUL-terminated within its fixed-size field; read no further than either.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
