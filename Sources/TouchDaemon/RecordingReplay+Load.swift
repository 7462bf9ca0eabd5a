import TouchCore
import TouchEvdev
import TouchInput
import TouchLayout
import TouchProtocol

extension RecordingReplay {
    /// Loads the recording at `path` (and its description) and maps its device the way the layout
    /// maps a live one: through the first matching `[[device]]` entry, or onto `window` when one is
    /// given.
    ///
    /// - Throws: ``RecordingError`` (with the file and line) for a bad recording, or
    ///   ``DevicePipelineError`` when no entry takes the device or it cannot be mapped.
    public init(path: String, descriptionPath: String?, layout: LayoutDocument, tree: ViewTree, window: String?) throws {
        let recording = try Recording.load(path: path, descriptionPath: descriptionPath)
        try self.init(recording: recording, layout: layout, tree: tree, window: window)
    }
}

extension RecordingReplay {
    /// What the `devices` request and topic are told of the replayed device: what they are told of
    /// a live device (its name, kind and the entry that matched it; a recording has no device node
    /// and no grab), and that it is a recording.
    public var listing: DeviceListing {
        let matched = match?.explanation ?? window.map { "mapped onto window \($0)" } ?? "no entry"
        return DeviceListing(facts, use: .used(id: pipeline.deviceID, matched: matched, grabbed: nil))
    }
}
