import ArgumentParser
import TouchProtocol

/// The `touchd` command: the daemon and its tools.
@main
struct Touchd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchd",
        abstract: "Bridges Linux touchscreens and touchpads to a UIKit-style view tree and its socket clients.",
        version: ReleaseVersion.of("touchd"),
        subcommands: [
            RunCommand.self, CheckCommand.self, HitTestCommand.self, ReplayCommand.self, DevicesCommand.self, DebugEventsCommand.self, RenderCommand.self,
            RecordCommand.self, CalibrateCommand.self, MeasureCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    /// ArgumentParser's, but a subcommand's usage error shows that subcommand's usage.
    static func main() { SubcommandErrors.main(Self.self) }
}
