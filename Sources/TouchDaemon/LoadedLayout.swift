import TouchCore
import TouchLayout

/// A layout as loaded from its file: the document (devices, daemon settings) and the application
/// built from it.
public struct LoadedLayout {
    public var document: LayoutDocument
    public var app: Application

    public init(document: LayoutDocument, app: Application) {
        self.document = document
        self.app = app
    }

    /// Reads the layout file at `path`, builds its application and reads the pointercal and
    /// calibration files it names: what the daemon needs at start and on every reload.
    /// - Throws: ``LayoutErrors`` with every problem found.
    public static func load(path: String) throws(LayoutErrors) -> LoadedLayout {
        var document = try LayoutLoader.load(path: path)
        let app = try document.makeApplication(file: path)
        let problems = PointercalFiles.load(into: &document, layoutFile: path) + CalibrationFiles.load(into: &document, layoutFile: path)
        guard problems.isEmpty else { throw LayoutErrors(problems) }
        return LoadedLayout(document: document, app: app)
    }
}
