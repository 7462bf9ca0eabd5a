import TouchCore

/// The watch page's `/layout` document (`touchctl watch`): each window of the running layout with
/// its picture, or why it has none, as `{"windows":[{"id":..,"svg":..}|{"id":..,"error":..}]}`.
public enum WatchLayout {
    /// One window of the document.
    public enum Window: Sendable {
        /// A window and its picture: the `svg` of touchd's `snapshot` reply, as it came.
        case picture(id: String, svg: JSONValue)
        /// A window whose picture could not be had, and why.
        case unavailable(id: String, error: String)
    }

    /// The document's bytes.
    public static func document(_ windows: [Window]) -> [UInt8] {
        let items: [JSONValue] = windows.map { window in
            switch window {
            case .picture(let id, let svg): .object([("id", .string(id)), ("svg", svg)])
            case .unavailable(let id, let error): .object([("id", .string(id)), ("error", .string(error))])
            }
        }
        return Array(JSONValue.object([("windows", .array(items))]).jsonText.utf8)
    }
}
