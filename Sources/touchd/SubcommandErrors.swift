import ArgumentParser
import TouchSystem

/// Runs a command line as ArgumentParser does (parsing, help, messages and exit codes), with two
/// differences. Every error is told in one style, `touchd: MESSAGE` (ArgumentParser's own is
/// `Error: MESSAGE`), so that what touchd says reads the same wherever it comes from. And a usage
/// error found while a subcommand runs (a ``ValidationError`` thrown by its `run()`: a window the
/// layout does not have) shows the subcommand's usage, as for the errors found while parsing,
/// where ArgumentParser would show the top-level one.
enum SubcommandErrors {
    static func main<Root: ParsableCommand>(_ root: Root.Type) -> Never {
        var command: ParsableCommand
        do {
            command = try root.parseAsRoot()
        } catch {
            fail(root, error)
        }
        do {
            try command.run()
            root.exit()
        } catch let error as ValidationError where type(of: command) != root {
            let usage = root.usageString(for: type(of: command))
            let names = usage.split(separator: " ").prefix { !($0.hasPrefix("[") || $0.hasPrefix("<") || $0.hasPrefix("-")) }
            var standardError = StandardError()
            print(
                "\(name(root)): \(error.message)\nUsage: \(usage)\n  See '\(names.joined(separator: " ")) --help' for more information.",
                to: &standardError)
            root.exit(withError: ExitCode.validationFailure)
        } catch {
            fail(root, error)
        }
    }

    /// The tool's name, as its messages begin.
    static func name<Root: ParsableCommand>(_ root: Root.Type) -> String { root.configuration.commandName ?? "touchd" }

    /// Ends with `error` as ArgumentParser would, its message prefixed with the tool's name instead
    /// of `Error:`; help, versions and exit codes as ArgumentParser has them.
    static func fail<Root: ParsableCommand>(_ root: Root.Type, _ error: Error) -> Never {
        let code = root.exitCode(for: error)
        let text = root.fullMessage(for: error)
        guard code != .success, !(error is ExitCode), text.hasPrefix("Error: ") else { root.exit(withError: error) }
        var standardError = StandardError()
        print("\(name(root)): " + text.dropFirst("Error: ".count), to: &standardError)
        root.exit(withError: code)
    }
}
