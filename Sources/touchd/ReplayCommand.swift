import ArgumentParser

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("touchd replay is not available yet")
    }
}
