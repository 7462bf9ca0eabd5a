import TouchCore
import TouchEvdev
import TouchLayout
import TouchSystem

/// The tslib `pointercal` files a layout's `[[device]]` entries name, read with the layout so that a
/// bad file is reported like any other problem of the layout (by `touchd check`, at start and on
/// reload) and the device pipelines never read files themselves.
///
/// A pointercal path may name any file on the system, and these problems reach socket clients and
/// logs: they name the file, the line and field at fault and what was expected there, never what
/// the file holds.
public enum PointercalFiles {
    /// Reads and parses every pointercal file `document` names into its device entries
    /// (``TouchLayout/DeviceSpec/pointercalContents``), each through
    /// ``TouchSystem/FileReader`` (at most ``TouchCore/Limits/maximumPointercalBytes``).
    /// Returns the problems found, each naming the file.
    public static func load(into document: inout LayoutDocument, layoutFile: String) -> [LayoutIssue] {
        var issues: [LayoutIssue] = []
        for index in document.devices.indices {
            guard let path = document.devices[index].pointercal else { continue }
            let keyPath = "device[\(index)].pointercal"
            let text: String
            do throws(FileReadError) {
                text = try FileReader.readText(path, limit: Limits.maximumPointercalBytes)
            } catch {
                issues.append(LayoutIssue(
                    kind: .unreadableFile, file: path, line: lineOf(error), keyPath: keyPath,
                    message: "cannot read the pointercal file named in \(layoutFile): \(error.reason)"))
                continue
            }
            do throws(CalibrationError) {
                document.devices[index].pointercalContents = try Pointercal.parse(text)
            } catch {
                issues.append(LayoutIssue(
                    kind: .invalidValue, file: path, line: error.line, keyPath: keyPath,
                    message: "\(error.problem) (the pointercal file named in \(layoutFile))"))
            }
        }
        return issues
    }

    private static func lineOf(_ error: FileReadError) -> Int? {
        guard case .invalidUTF8(_, let line, _) = error else { return nil }
        return line
    }
}
