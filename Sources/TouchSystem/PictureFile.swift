/// A picture file, SVG or PNG by its name: how `touchd render`, `touchd hit-test --svg` and
/// `touchctl snapshot` write what they draw. PNG pictures are SVG converted by `rsvg-convert`
/// (Debian's librsvg2-bin).
public enum PictureFile {
    /// The formats a picture can be written in.
    public enum Format: Hashable, Sendable {
        case svg
        case png
    }

    /// The format a file name asks for (`.svg` or `.png`, in any case).
    /// - Throws: ``FileWriteError`` for any other name.
    public static func format(of path: String) throws(FileWriteError) -> Format {
        let lower = path.lowercased()
        if lower.hasSuffix(".svg") { return .svg }
        if lower.hasSuffix(".png") { return .png }
        throw FileWriteError(path: path, reason: "the name must end in .svg or .png")
    }

    /// Writes the SVG text to `path`, as SVG or converted to PNG, as its name says.
    /// - Throws: ``FileWriteError`` naming the file and what failed.
    public static func write(svg: String, to path: String) throws(FileWriteError) {
        switch try format(of: path) {
        case .svg:
            try FileWriter.write(text: svg, to: path)
        case .png:
            try convertToPNG(svg, path: path)
        }
    }

    private static func convertToPNG(_ svg: String, path: String) throws(FileWriteError) {
        guard let tool = ChildProcess.find("rsvg-convert") else {
            throw FileWriteError(
                path: path,
                reason: "PNG output needs rsvg-convert, which is not installed (Debian/Ubuntu: apt-get install librsvg2-bin); or write a .svg")
        }
        // Converted beside the file and then put in its place: a conversion that fails (a picture
        // too large) leaves the file that was there.
        try FileWriter.replace(path) { (temporary: String) throws(FileWriteError) in
            let outcome: ChildProcess.Outcome
            do throws(SystemError) {
                outcome = try ChildProcess.run(tool, ["--format", "png", "--output", temporary], input: Array(svg.utf8))
            } catch {
                throw FileWriteError(path: path, reason: "cannot run \(tool): \(error.errnoText)")
            }
            guard outcome.status == 0 else {
                let message = outcome.standardError.split(whereSeparator: \.isNewline).joined(separator: " ")
                throw FileWriteError(path: path, reason: "rsvg-convert failed (status \(outcome.status)): \(message)")
            }
        }
    }
}
