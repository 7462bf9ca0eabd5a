import TouchEvdev
import TouchLayout
import TouchSystem

/// The tslib `pointercal` files a layout's `[[device]]` entries name, read with the layout so that a
/// bad file is reported like any other problem of the layout (by `touchd check`, at start and on
/// reload) and the device pipelines never read files themselves.
public enum PointercalFiles {
    /// The most read from a pointercal file: it holds ten integers.
    public static let maximumBytes = 64 * 1024

    /// Reads and parses every pointercal file `document` names into its device entries
    /// (``DeviceSpec/pointercalContents``). Returns the problems found, each naming the file.
    public static func load(into document: inout LayoutDocument, layoutFile: String) -> [LayoutIssue] {
        var issues: [LayoutIssue] = []
        for index in document.devices.indices {
            guard let path = document.devices[index].pointercal else { continue }
            let keyPath = "device[\(index)].pointercal"
            let text: String
            do throws(FileReadError) {
                text = try FileReader.readText(path, limit: maximumBytes)
            } catch {
                issues.append(LayoutIssue(
                    kind: .unreadableFile, file: path, keyPath: keyPath,
                    message: "cannot read the pointercal file named in \(layoutFile): \(error.reason)"))
                continue
            }
            do {
                document.devices[index].pointercalContents = try Pointercal.parse(text)
            } catch {
                issues.append(LayoutIssue(
                    kind: .invalidValue, file: path, line: line(of: error, in: text), keyPath: keyPath,
                    message: "\(error.problem) (the pointercal file named in \(layoutFile))"))
            }
        }
        return issues
    }

    /// The line a parse error is about.
    static func line(of error: CalibrationError, in text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, line) in lines.enumerated() {
            for field in line.split(whereSeparator: \.isWhitespace) where error.problem.hasPrefix("'\(field)' ") {
                return i + 1
            }
        }
        guard let last = lines.lastIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else { return 1 }
        return last + 1
    }
}
