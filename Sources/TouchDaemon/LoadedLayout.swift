import TouchCore
import TouchLayout

/// A layout as loaded from its file: the document (devices, daemon settings) and the application
/// built from it.
public struct LoadedLayout {
    public var document: LayoutDocument
    public var app: Application
    /// The state files that were left aside (``CalibrationFiles``): logged at start and on reload,
    /// warnings of `touchd check`, never a reason not to load.
    public var warnings: [LayoutIssue]

    public init(document: LayoutDocument, app: Application, warnings: [LayoutIssue] = []) {
        self.document = document
        self.app = app
        self.warnings = warnings
    }

    /// Reads the layout file at `path`, builds its application and reads the pointercal and
    /// calibration files it names: what the daemon needs at start and on every reload.
    /// - Throws: ``LayoutErrors`` with every problem found (a calibration file is no problem:
    ///   ``warnings``).
    public static func load(path: String) throws(LayoutErrors) -> LoadedLayout {
        var document = try LayoutLoader.load(path: path)
        let app = try document.makeApplication(file: path)
        let problems = PointercalFiles.load(into: &document, layoutFile: path)
        guard problems.isEmpty else { throw LayoutErrors(problems) }
        let warnings = CalibrationFiles.load(into: &document, layoutFile: path)
        return LoadedLayout(document: document, app: app, warnings: warnings)
    }
}
