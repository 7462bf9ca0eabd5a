import TouchCore
import TouchEvdev
import TouchLayout
import TouchSystem

/// The calibration files a layout's `[[device]]` entries name (`calibration_file`): touchd's own
/// state, read with the layout (by `touchd check`, at start and on reload) and written by a
/// calibration session.
///
/// A state file is never a reason not to start: a file that does not exist yet, cannot be read or
/// is not what the writer writes (empty after a power cut, damaged, edited by hand) is left aside
/// with a warning, and the device's other calibrations apply until a session writes it anew.
/// Warnings name the file, the line and field at fault and what was expected there, never what the
/// file holds.
public enum CalibrationFiles {
    /// Reads every calibration file `document` names into its device entries
    /// (``TouchLayout/DeviceSpec/calibrationFileMatrix``), each through ``TouchSystem/FileReader``
    /// (at most ``TouchCore/Limits/maximumCalibrationFileBytes``). Returns the warnings: each file
    /// that could not be used, which was left aside.
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
                    message: "cannot read the calibration file named in \(layoutFile): \(error.reason); \(Self.leftAside)"))
                continue
            }
            do throws(CalibrationError) {
                document.devices[index].calibrationFileMatrix = try CalibrationFile.parse(text).matrix
            } catch {
                issues.append(LayoutIssue(
                    kind: .invalidValue, file: path, line: error.line, keyPath: keyPath,
                    message: "\(error.problem) (the calibration file named in \(layoutFile)); \(Self.leftAside)"))
            }
        }
        return issues
    }

    /// What happens to a calibration file that cannot be used, for warnings.
    static let leftAside = "the file is left aside and the device's other calibrations apply until a calibration session writes it"

    /// Writes `file` to `path`, replacing what was there (all or nothing, and durable:
    /// ``TouchSystem/FileWriter``). The text is read back first: a file the reader would refuse
    /// (a matrix outside ``TouchCore/Limits/calibrationCoefficient``) is never written.
    /// - Throws: ``TouchSystem/FileWriteError``.
    public static func save(_ file: CalibrationFile, to path: String) throws(FileWriteError) {
        let text = file.text
        do throws(CalibrationError) {
            _ = try CalibrationFile.parse(text)
        } catch {
            throw FileWriteError(path: path, reason: "not written: \(error.problem)")
        }
        try FileWriter.write(text: text, to: path, mode: 0o644)
    }
}
