import TouchEvdev
import TouchLayout

/// Reads and checks the tslib `pointercal` files a layout's `[[device]]` entries name, so that a
/// bad one is found when the layout is checked, started or reloaded, not when a device appears.
public enum PointercalValidation {
    /// The problems of every referenced pointercal file: unreadable, or not what tslib writes.
    /// Each issue names the pointercal file, the line at fault when there is one, the layout entry
    /// that refers to it, and what was expected.
    public static func issues(in document: LayoutDocument, layoutFile: String) -> [LayoutIssue] {
        var issues: [LayoutIssue] = []
        for (index, spec) in document.devices.enumerated() {
            guard let path = spec.pointercal else { continue }
            let keyPath = "device[\(index)].pointercal"
            let text: String
            do {
                text = try DeviceInputPipeline.readText(path)
            } catch {
                let reason = (error as? DevicePipelineError)?.problem ?? "\(error)"
                issues.append(LayoutIssue(
                    kind: .unreadableFile, file: path, keyPath: keyPath,
                    message: "cannot read the pointercal file named in \(layoutFile): \(reason)"))
                continue
            }
            do {
                _ = try Pointercal.parse(text)
            } catch {
                issues.append(LayoutIssue(
                    kind: .invalidValue, file: path, line: line(of: error, in: text), keyPath: keyPath,
                    message: "\(error.problem) (the pointercal file named in \(layoutFile))"))
            }
        }
        return issues
    }

    /// The 1-based line to blame: the one holding a field that is not an integer, or for a wrong
    /// count or value the last line with fields (where more, fewer or other ones were expected).
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
