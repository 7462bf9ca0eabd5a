import TouchCore
import TouchEvdev
import TouchSystem

// Reading recordings by path: the I/O half of `Recording`'s parsing, through `FileReader`.

extension Recording {
    /// The most directory entries looked through for a companion description file.
    static let maximumDirectoryEntries = 100_000

    /// Reads and parses the recording at `path`, detecting its format.
    ///
    /// Files are read through ``TouchSystem/FileReader`` (regular files only, without blocking,
    /// at most ``TouchCore/Limits/maximumRecordingBytes``, or
    /// ``TouchCore/Limits/maximumDescriptionBytes`` for a description); bytes that are not UTF-8
    /// (firmware garbage in a device name) become U+FFFD. An events-only evemu file needs a device
    /// description: `descriptionPath` when given, else its companion in the same directory (see
    /// ``TouchEvdev/Recording/companionName(for:among:)``).
    ///
    /// - Parameters:
    ///   - path: The recording.
    ///   - descriptionPath: An evemu description file (`.desc`, `.device`, or any evemu file with
    ///     `N:`/`A:` lines) for the device; it replaces whatever `path` describes.
    /// - Throws: ``TouchEvdev/RecordingError``: `.unreadable` when a file cannot be read,
    ///   `.missingDescription` when an events-only file has no companion, or the parse error of
    ///   either file.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
        let text = try readText(path, limit: Limits.maximumRecordingBytes, what: "the recording")
        if let descriptionPath {
            let descriptionText = try readText(descriptionPath, limit: Limits.maximumDescriptionBytes, what: "the device description")
            let description = try parseDescription(text: descriptionText, name: descriptionPath)
            var recording = try parse(text: text, name: path, description: description)
            recording.descriptionSource = .companion(path: descriptionPath)
            return recording
        }
        return try parse(text: text, name: path) { () throws(RecordingError) -> (path: String, text: String)? in
            guard let companion = companionDescriptionPath(forEventsAt: path) else { return nil }
            return (companion, try readText(companion, limit: Limits.maximumDescriptionBytes, what: "the device description"))
        }
    }

    /// The description file that belongs to the events-only recording at `path`, or nil (see
    /// ``TouchEvdev/Recording/companionName(for:among:)`` for the rule).
    public static func companionDescriptionPath(forEventsAt path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let entries = try? DirectoryListing.names(in: directory.isEmpty ? "." : directory, limit: maximumDirectoryEntries),
            let name = companionName(for: fileName, among: entries)
        else { return nil }
        return directory + name
    }

    private static func readText(_ path: String, limit: Int, what: String) throws(RecordingError) -> String {
        do throws(FileReadError) {
            return String(decoding: try FileReader.read(path, limit: limit), as: UTF8.self)
        } catch {
            throw RecordingError(file: path, kind: .unreadable(reason: error.reason, what: what))
        }
    }
}
