import ArgumentParser
import TouchCore
import TouchDaemon
import TouchLayout
#if canImport(Glibc)
import Glibc
#endif

/// `touchd check`: validates a layout and prints what it contains.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a layout file and print a summary of it.",
        discussion: "Exits with status 0 when the layout is valid, 1 when it is not (every problem is listed).")

    @Option(name: .long, help: "The layout file (TOML).", completion: Completions.layout)
    var config: String

    func run() throws {
        let (document, app) = try loadLayout(config)
        print(LayoutSummary.text(document: document, app: app, file: config))
    }
}

/// Loads and validates a layout, printing every problem and exiting 1 when there are any.
func loadLayout(_ path: String) throws -> (LayoutDocument, Application) {
    do throws(LayoutErrors) {
        let loaded = try LoadedLayout.load(path: path)
        return (loaded.document, loaded.app)
    } catch let errors {
        var stderr = StandardError()
        print(errors.description, to: &stderr)
        let n = errors.issues.count
        print("\(path): \(n) problem\(n == 1 ? "" : "s"); nothing was loaded", to: &stderr)
        throw ExitCode.failure
    }
}

/// Writes to standard error.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        _ = string.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}

/// The readable summary `touchd check` prints.
enum LayoutSummary {
    /// The smallest comfortable touch target, in millimetres.
    static let minimumTargetMillimetres = 9.0

    static func text(document: LayoutDocument, app: Application, file: String) -> String {
        let tree = app.tree
        var lines: [String] = []
        lines.append(
            "\(file): valid: \(plural(tree.windowIDs.count, "window")), \(plural(tree.viewCount, "view")), "
                + "\(plural(tree.controllerIDs.count, "controller")), \(plural(app.handlers.count, "handler")), "
                + "\(plural(document.gestures.count, "gesture recognizer")), \(plural(document.controls.count, "control")), "
                + "\(plural(document.devices.count, "device entry").replacingOccurrences(of: "entrys", with: "entries"))")
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
            let actions = control.targets.map { "\($0.event.rawValue) → \($0.action)" + ($0.target.map { " (to \($0))" } ?? "") }
            lines.append("control \(control.view): \(control.kind.name)" + (actions.isEmpty ? "" : ", " + actions.joined(separator: ", ")))
        }
        for (i, device) in document.devices.enumerated() {
            let target = device.ignore ? "ignored" : "window " + (device.window.isEmpty ? "(the key window)" : device.window)
            lines.append("device[\(i)]: \(device.match.kind.rawValue) → \(target)")
        }
        lines += warnings(document: document, tree: tree)
        lines += controlOverrideWarnings(document: document)
        return lines.joined(separator: "\n")
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

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
        var line = "handler \(handler.responder) on \(handler.trigger.rawValue) → \(handler.action)"
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

    /// Controls with a touch handler that does not pass the call on: like a `UIButton` subclass
    /// overriding a touch method without calling `super`, the control then stops tracking there.
    static func controlOverrideWarnings(document: LayoutDocument) -> [String] {
        let controls = Set(document.controls.filter(\.isEnabled).map(\.view))
        return document.handlers.compactMap { handler in
            guard controls.contains(handler.responder), !handler.passesOn else { return nil }
            let effect: String
            switch handler.trigger {
            case .touchesBegan: effect = "never begins tracking: no touch_down and no action"
            case .touchesMoved: effect = "does not follow the finger: no drag events, and a slider stays put"
            case .touchesEnded: effect = "never sees the touch end: no touch_up_inside and no action"
            case .touchesCancelled: effect = "sends no touch_cancel"
            case .action, .pressesBegan, .pressesEnded, .pressesCancelled, .remoteControl, .motionBegan, .motionEnded, .motionCancelled:
                return nil
            }
            return "warning: control \(handler.responder): its \(handler.trigger.rawValue) handler (\(handler.action)) does not pass the call "
                + "on, like a \(handler.trigger.methodName) override that does not call super: the control \(effect) "
                + "(pass_on = true keeps it working)"
        }
    }

    /// Views with handlers whose hit area is smaller than a finger's comfortable target.
    static func warnings(document: LayoutDocument, tree: ViewTree) -> [String] {
        var result: [String] = []
        var warned: Set<ResponderID> = []
        for handler in document.handlers where !warned.contains(handler.responder) {
            let id = handler.responder
            guard tree.kind(of: id) == .view, let props = tree.properties(of: id), let window = tree.window(of: id),
                let ppm = tree.windowProperties(of: window)?.pointsPerMillimetre
            else { continue }
            let area = props.hitArea
            let w = area.width / ppm
            let h = area.height / ppm
            if min(w, h) < minimumTargetMillimetres {
                warned.insert(handler.responder)
                result.append(
                    "warning: view \(id): its hit area is \(formatNumber(w))×\(formatNumber(h)) mm, smaller than the "
                        + "\(formatNumber(minimumTargetMillimetres)) mm a finger needs (hit_expansion can enlarge it)")
            }
        }
        return result
    }
}
