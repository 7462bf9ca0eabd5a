import ArgumentParser

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("touchd check is not available yet")
    }
}
