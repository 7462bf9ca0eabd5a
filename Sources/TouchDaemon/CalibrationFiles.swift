import TouchCore
import TouchEvdev
import TouchLayout
import TouchSystem

/// The calibration files a layout's `[[device]]` entries name (`calibration_file`): read with the
/// layout, so that a bad file is reported like any other problem of the layout (by `touchd check`,
/// at start and on reload), and written by a calibration session.
///
/// A file that does not exist yet is no problem: the device has not been calibrated, and its other
/// calibrations apply. Problems name the file, the line and field at fault and what was expected
/// there, never what the file holds.
public enum CalibrationFiles {
    /// Reads every calibration file `document` names into its device entries
    /// (``TouchLayout/DeviceSpec/calibrationFileMatrix``), each through ``TouchSystem/FileReader``
    /// (at most ``TouchCore/Limits/maximumCalibrationFileBytes``). Returns the problems found.
    public static func load(into document: inout LayoutDocument, layoutFile: String) -> [LayoutIssue] {
        var issues: [LayoutIssue] = []
        for index in document.devices.indices {
            guard let path = document.devices[index].calibrationFile else { continue }
            let keyPath = "device[\(index)].calibration_file"
            let text: String
            do throws(FileReadError) {
                text = try FileReader.readText(path, limit: Limits.maximumCalibrationFileBytes)
            } catch {
                if case .system(_, let cause) = error, cause.isMissing { continue }
                issues.append(LayoutIssue(
                    kind: .unreadableFile, file: path, line: nil, keyPath: keyPath,
                    message: "cannot read the calibration file named in \(layoutFile): \(error.reason)"))
                continue
            }
            do throws(CalibrationError) {
                document.devices[index].calibrationFileMatrix = try CalibrationFile.parse(text).matrix
            } catch {
                issues.append(LayoutIssue(
                    kind: .invalidValue, file: path, line: error.line, keyPath: keyPath,
                    message: "\(error.problem) (the calibration file named in \(layoutFile))"))
            }
        }
        return issues
    }

    /// Writes `file` to `path`, replacing what was there (all or nothing: ``TouchSystem/FileWriter``).
    /// - Throws: ``TouchSystem/FileWriteError``.
    public static func save(_ file: CalibrationFile, to path: String) throws(FileWriteError) {
        try FileWriter.write(text: file.text, to: path, mode: 0o644)
    }
}
