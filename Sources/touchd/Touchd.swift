import ArgumentParser
import TouchControl
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

    /// ArgumentParser's, but a subcommand's usage error shows that subcommand's usage. Invoked as
    /// `touchctl` (the installed `touchctl` is a link to this binary), it is the client.
    static func main() {
        if isInvokedAsClient(CommandLine.arguments.first) {
            Touchctl.main()
            return
        }
        SubcommandErrors.main(Self.self)
    }

    /// Whether the program was invoked as `touchctl`: the last part of its path is `touchctl`.
    static func isInvokedAsClient(_ program: String?) -> Bool {
        guard let program else { return false }
        return program.split(separator: "/", omittingEmptySubsequences: false).last == "touchctl"
    }
}
