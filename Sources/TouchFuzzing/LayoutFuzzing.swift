import TouchCore
import TouchLayout

/// A layout file's bytes, loaded as the daemon loads one (UTF-8, TOML, every domain, budget and
/// reference checked), built into its application, and touched.
///
/// Checked: the file either loads or is refused with issues, each saying what is wrong, in the
/// file given, with a line of the text and a column from 1 when it names one, in line order; a
/// layout that loads builds its application or is refused the same way; and taps at points of
/// each window (its centre and where the bytes say) dispatch without trouble, every touch ending.
public enum LayoutFuzzing {
    static let file = "fuzz.toml"

    public static func run(_ bytes: [UInt8]) throws(FuzzViolation) {
        let app: Application
        do throws(LayoutErrors) {
            let document = try LayoutLoader.parse(bytes, file: file)
            app = try document.makeApplication(file: file)
        } catch {
            try checkRefusal(error, lineCount: bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
            return
        }
        try touch(app, points: bytes.suffix(4))
    }

    private static func checkRefusal(_ errors: LayoutErrors, lineCount: Int) throws(FuzzViolation) {
        try require(!errors.issues.isEmpty, "a layout refused with no issue")
        var previousLine = 0
        for issue in errors.issues {
            try require(issue.file == file && !issue.message.isEmpty, "an issue that does not say where or what: \(issue)")
            guard let line = issue.line else { continue }
            try require((1...lineCount).contains(line), "an issue at line \(line) of \(lineCount): \(issue)")
            try require(issue.column.map { $0 >= 1 } ?? true, "an issue at column \(issue.column ?? 0): \(issue)")
            try require(line >= previousLine, "issues out of line order: line \(line) after \(previousLine)\n\(errors)")
            previousLine = line
        }
    }

    /// Taps each window (at most four) at its centre and at a point the last bytes choose, with a
    /// move between, then runs the timers out: every touch is over at the end.
    private static func touch(_ app: Application, points: ArraySlice<UInt8>) throws(FuzzViolation) {
        var app = app
        let extra = points.map { Double($0) }
        var time: InputTime = 1
        for (index, window) in app.tree.windowIDs.prefix(4).enumerated() {
            guard let size = app.tree.windowProperties(of: window)?.size else { continue }
            let centre = Point(x: size.width / 2, y: size.height / 2)
            let chosen = Point(x: size.width * (extra.first ?? 0) / 255, y: size.height * (extra.last ?? 0) / 255)
            for (n, point) in [centre, chosen].enumerated() {
                let id = UInt64(truncatingIfNeeded: index * 2 + n + 1)
                for (phase, at) in [(TouchPhase.began, point), (.moved, Point(x: point.x + 3, y: point.y)), (.ended, point)] {
                    _ = app.send(InputFrame(device: "fuzz", window: window, timestamp: time, contacts: [InputContact(id: id, phase: phase, location: at)]))
                    time += 0.01
                }
            }
        }
        _ = app.dispatchAll()
        _ = app.flushTimers()
        try require(app.activeTouches.isEmpty, "touches still live after every tap ended: \(app.activeTouches.map(\.id))")
    }
}
