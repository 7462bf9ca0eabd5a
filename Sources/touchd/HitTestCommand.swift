import ArgumentParser

struct HitTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hit-test", abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("touchd hit-test is not available yet")
    }
}
