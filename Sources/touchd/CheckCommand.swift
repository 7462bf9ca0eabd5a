import ArgumentParser
import Logging
import TouchCore
import TouchDaemon
import TouchLayout
import TouchSystem

/// `touchd check`: validates a layout and prints what it contains.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a layout file and print a summary of it.",
        discussion: "Exits with status 0 when the layout is valid, 1 when it is not (every problem is listed).")

    @Option(name: .long, help: "The layout file (TOML).", completion: Completions.layout)
    var config: String?

    @Argument(help: "The layout file (TOML), as an alternative to --config.")
    var file: String?

    /// The layout file: `--config` or the argument, exactly one of them.
    func layoutFile() throws -> String {
        switch (config, file) {
        case (let path?, nil), (nil, let path?): return path
        case (_?, _?): throw ValidationError("give the layout file once: as an argument or with --config, not both")
        case (nil, nil): throw ValidationError("missing the layout file: touchd check FILE, or touchd check --config FILE")
        }
    }

    func validate() throws { _ = try layoutFile() }

    func run() throws {
        let path = try layoutFile()
        var stateWarnings: [String] = []
        let (document, app) = try loadLayout(path) { stateWarnings.append($0) }
        try checkStartup(document, path: path)
        print(LayoutSummary.text(document: document, app: app, file: path))
        for warning in StartupChecks.warnings(document: document) + stateWarnings { print("warning: " + warning) }
    }
}

/// What stops the daemon from starting with a loaded layout on this system (``StartupChecks``):
/// printed as the layout's own problems are, with the file, line and key, and exit status 1.
/// `overrides` are the `[daemon]` keys the command line replaces.
func checkStartup(_ document: LayoutDocument, path: String, overrides: StartupChecks.Overrides = StartupChecks.Overrides()) throws {
    let text = (try? FileReader.readText(path, limit: Limits.maximumLayoutBytes)) ?? ""
    let problems = StartupChecks.problems(daemon: document.daemon, layoutFile: path, lines: LayoutKeyLines(text: text), overrides: overrides)
    guard !problems.isEmpty else { return }
    let n = problems.count
    printProblems(LayoutErrors(problems).description + "\n\(path): \(n) problem\(n == 1 ? "" : "s") on this system; the daemon would not start with it")
    throw ExitCode.failure
}

/// Loads and validates a layout, printing every problem and exiting 1 when there are any. A state
/// file left aside (``TouchDaemon/LoadedLayout/warnings``) is told to `warn`, by default as a
/// `warning:` line on standard error.
func loadLayout(_ path: String, warn: (String) -> Void = printWarning) throws -> (LayoutDocument, Application) {
    do throws(LayoutErrors) {
        let loaded = try LoadedLayout.load(path: path)
        for warning in loaded.warnings { warn(warning.description) }
        return (loaded.document, loaded.app)
    } catch let errors {
        let n = errors.problemCount
        printProblems(errors.description + "\n\(path): \(n) problem\(n == 1 ? "" : "s"); nothing was loaded")
        throw ExitCode.failure
    }
}

/// Prints a layout's problems to standard error; under systemd (standard error is the `JOURNAL_STREAM`, as for the
/// unit's `ExecReload` check) every line at error priority, so `journalctl -p err` lists them.
func printProblems(_ text: String) {
    var stderr = StandardError()
    if JournalStream.isStandardError {
        print(JournalLogHandler.journalLines(text, level: .error), terminator: "", to: &stderr)
    } else {
        print(text, to: &stderr)
    }
}

/// Prints `warning: TEXT` on standard error.
func printWarning(_ text: String) {
    var stderr = StandardError()
    print("warning: " + text, to: &stderr)
}

/// The readable summary `touchd check` prints.
enum LayoutSummary {
    static func text(document: LayoutDocument, app: Application, file: String) -> String {
        let tree = app.tree
        var lines: [String] = []
        let counts = [
            plural(tree.windowIDs.count, "window"), plural(tree.viewCount, "view"), plural(tree.controllerIDs.count, "controller"),
            plural(app.handlers.count, "handler"), plural(document.gestures.count, "gesture recognizer"),
            plural(document.controls.count, "control"), plural(document.devices.count, "device entry", "device entries"),
        ]
        lines.append("\(file): valid: " + counts.joined(separator: ", "))
        lines += windowLines(document: document, tree: tree)
        for controller in tree.controllerIDs {
            guard let c = tree.controllerProperties(of: controller) else { continue }
            lines.append("controller \(controller): root view \(c.view)" + (c.presentedBy.map { ", presented by \($0)" } ?? ""))
        }
        lines += document.handlers.map(handlerLine)
        for gesture in document.gestures {
            lines.append("gesture \(gesture.id): \(gesture.kind.name) on \(gesture.view)" + (gesture.action.map { " → \($0)" } ?? ""))
        }
        for control in document.controls {
            let actions = control.targets.map { "\($0.event.rawValue) → \($0.action) \(route(of: $0, from: control.view, app: app))" }
            lines.append("control \(control.view): \(control.kind.name)" + (actions.isEmpty ? "" : ", " + actions.joined(separator: ", ")))
        }
        for (i, device) in document.devices.enumerated() {
            let target = device.ignore ? "ignored" : "window " + (device.window.isEmpty ? "(the key window)" : device.window)
            lines.append("device[\(i)]: \(device.match.kind.rawValue) → \(target)")
        }
        lines += LayoutWarnings.warnings(document: document, app: app).map { "warning: " + $0 }
        return lines.joined(separator: "\n")
    }

    static func plural(_ n: Int, _ word: String, _ words: String? = nil) -> String { "\(n) \(n == 1 ? word : words ?? word + "s")" }

    /// Where a control's action goes: who takes it (as the first responder varies, each who may),
    /// or that clients get it as it is.
    static func route(of target: ControlTarget, from control: ResponderID, app: Application) -> String {
        let takers = app.possibleActionTakers(for: target, from: control)
        let named = takers.compactMap { $0?.rawValue }
        let clients = takers.contains(nil)
        let to = target.target.map { "to \($0); " } ?? ""
        switch (named.isEmpty, clients) {
        case (true, _): return "(\(to)no responder takes it: clients get it as it is)"
        case (false, false): return "(\(to)taken by \(named.joined(separator: " or ")))"
        case (false, true): return "(\(to)taken by \(named.joined(separator: " or ")) when on its way, else clients get it as it is)"
        }
    }

    /// One line per window of the tree, with its first responder from the layout.
    static func windowLines(document: LayoutDocument, tree: ViewTree) -> [String] {
        var firstResponders: [ResponderID: ResponderID] = [:]
        for window in document.windows where firstResponders[window.id] == nil {
            firstResponders[window.id] = window.firstResponder
        }
        return tree.windowIDs.compactMap { window in
            guard let w = tree.windowProperties(of: window) else { return nil }
            let key = tree.keyWindow == window ? ", key" : ""
            return "window \(window): \(formatNumber(w.size.width))×\(formatNumber(w.size.height)) pt, level \(formatNumber(w.level))\(key), "
                + "\(formatNumber(w.pointsPerMillimetre)) pt/mm, display \(w.display), \(plural(tree.views(in: window).count, "view"))"
                + (w.rootController.map { ", root controller \($0)" } ?? "")
                + (firstResponders[window].map { ", first responder \($0)" } ?? "")
        }
    }

    static func handlerLine(_ handler: Handler) -> String {
        var line = "handler \(handler.responder) on \(handler.trigger.rawValue)"
        line += handler.selector.map { " \"\($0)\"" } ?? ""
        line += " → \(handler.action)"
        line += handler.tapCount.map { " (tap count \($0))" } ?? ""
        line += handler.key.map { " (key \($0))" } ?? ""
        line += handler.remoteControl.map { " (\($0.rawValue))" } ?? ""
        line += handler.passesOn ? "" : ", consumes"
        switch handler.firstResponderEffect {
        case .become(let id): line += ", \(id) becomes first responder"
        case .resign(let id): line += ", \(id) resigns first responder"
        case nil: break
        }
        return line
    }
}
