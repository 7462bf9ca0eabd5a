import TouchSystem

/// The committed inputs: `Fuzz/corpus/TARGET/` (seeds) and `Fuzz/regressions/TARGET/` (every
/// input that once found a bug), replayed by the test suite through their targets.
public enum FuzzCorpus {
    /// The largest input replayed (libFuzzer's inputs are far smaller).
    public static let maximumInputBytes = 1 << 20

    /// Runs the file at `path` through `target`.
    public static func replay(_ path: String, through target: FuzzTarget) -> Result<Void, FuzzViolation> {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try FileReader.read(path, limit: maximumInputBytes)
        } catch {
            return .failure(FuzzViolation("cannot read \(path): \(error.reason)"))
        }
        do throws(FuzzViolation) {
            try target.run(bytes)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// The files of `directory` (sorted), or none when it does not exist.
    public static func files(in directory: String) -> [String] {
        guard let names = try? DirectoryListing.names(in: directory, limit: 100_000) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
    }
}
