import ArgumentParser
import Logging
import TouchProtocol

/// What a shell offers after each kind of argument (`touchd --generate-completion-script bash`).
enum Completions {
    /// A layout: `.toml` files.
    static var layout: CompletionKind { .file(extensions: ["toml"]) }
    /// A recording (evemu, libinput-record, getevent) or a device description: any file.
    static var recording: CompletionKind { .file() }
    /// An input device: its node (`/dev/input/event5`), so any file.
    static var device: CompletionKind { .file() }
    /// A picture to write: `.svg` or `.png` files.
    static var picture: CompletionKind { .file(extensions: ["svg", "png"]) }
    /// A socket path.
    static var socket: CompletionKind { .file() }
    /// `--log-level`'s values.
    static var logLevel: CompletionKind { .list(Logger.Level.allCases.map(\.rawValue)) }
    /// A comma-separated list of topics, completed item by item.
    static var topics: CompletionKind { .custom { _, _, prefix in Topic.listCompletions(prefix) } }
}
