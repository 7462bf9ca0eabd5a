import ArgumentParser

/// Runs a command line as ArgumentParser does (parsing, help, messages and exit codes), except for
/// a usage error found while a subcommand runs (a ``ValidationError`` thrown by its `run()`: a
/// window the layout does not have, a group that does not exist): ArgumentParser would show the
/// top-level usage with it; this shows the subcommand's, as for the errors found while parsing.
enum SubcommandErrors {
    static func main<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        var command: ParsableCommand
        do {
            command = try root.parseAsRoot()
        } catch {
            root.exit(withError: error)
        }
        do {
            try command.run()
            root.exit()
        } catch let error as ValidationError where type(of: command) != root {
            let usage = root.usageString(for: type(of: command))
            let names = usage.split(separator: " ").prefix { !($0.hasPrefix("[") || $0.hasPrefix("<") || $0.hasPrefix("-")) }
            var standardError = StandardError()
            print("Error: \(error.message)\nUsage: \(usage)\n  See '\(names.joined(separator: " ")) --help' for more information.", to: &standardError)
            root.exit(withError: ExitCode.validationFailure)
        } catch {
            root.exit(withError: error)
        }
    }
}
