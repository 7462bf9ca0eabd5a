import ArgumentParser
import TouchCore
import TouchProtocol

/// `touchctl add-view`: adds a view that stays (it does not leave with touchctl's connection).
struct AddView: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-view",
        abstract: "Add a view on top of a parent's subviews: frame=x,y,w,h (required) hidden=true alpha=0.5 ...",
        discussion: """
            The view stays until it is removed (touchctl remove-view) or the layout is reloaded: unlike \
            the views a client adds for itself, it does not leave when touchctl's connection ends.
            """)
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Argument(help: "The new view's id.") var view: String
    @Option(name: .long, help: "The parent: a window or a view.") var parent: String
    @Argument(help: "key=value pairs, as for set; frame=x,y,w,h is required.") var assignments: [String]

    func request() throws -> ClientRequest {
        try checked(.addView(view, parent: parent, properties: try SetView.properties(assignments), keep: true))
    }

    func run() throws {
        try TouchControl.run {
            _ = try reply()
            print("added \(view) to \(parent)")
        }
    }
}

/// `touchctl remove-view`.
struct RemoveView: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-view", abstract: "Remove a view and its subviews (their touches are cancelled first).")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Argument(help: "The view's id.") var view: String

    func request() throws -> ClientRequest { try checked(.removeView(view)) }

    func run() throws {
        try TouchControl.run {
            _ = try reply()
            print("removed \(view)")
        }
    }
}

/// `touchctl set-control`.
struct SetControl: RequestCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-control",
        abstract: "Set a control's value (a toggle's true or false, a slider's number) or whether it is enabled; no action is sent.")
    @ParentCommand var root: Touchctl
    @OptionGroup var connection: SocketOption
    @Argument(help: "The control's view.") var view: String
    @Option(name: .long, help: "true or false for a toggle, a number within a slider's range.") var value: String?
    @Option(name: .long, help: "true or false.") var enabled: Bool?
    @Flag(name: .long, help: "Print the reply's JSON.") var json = false

    func request() throws -> ClientRequest {
        try checked(.setControl(view: view, value: try value.map { try SetView.value($0, in: "--value \($0)") }, enabled: enabled))
    }

    func run() throws {
        try TouchControl.run {
            let control = try reply()
            print(json ? control.jsonText : "\(view): " + ReplyFormat.control(control))
        }
    }
}
