import ArgumentParser

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "Not yet available.")

    func run() throws {
        throw ValidationError("touchd devices is not available yet")
    }
}
