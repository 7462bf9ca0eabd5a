import Testing
import TouchCore

@testable import TouchLayout

/// Every number a layout gives is checked against a domain of ``Limits``; the refusal names the
/// file, line, key path and the domain.
@Suite(.timeLimit(.minutes(10))) struct DomainTests {
    /// A number key and where it goes: the text around `VALUE`, the key path of the refused value
    /// and the domain it must be in.
    struct NumberKey: CustomTestStringConvertible, Sendable {
        var snippet: String
        var keyPath: String
        var domain: NumberDomain
        var testDescription: String { keyPath }
    }

    static let handlerHead = "[[handler]]\nresponder = \"a\"\non = \"touches_began\"\naction = \"x\"\n"
    static let deviceHead = "[[device]]\nwindow = \"main\"\n"
    static let gestureHead = "[[gesture]]\nid = \"g\"\nview = \"a\"\n"

    /// One key of every domain the layout uses, each somewhere it is read.
    static let keys: [NumberKey] = [
        NumberKey(snippet: "[tap]\ninterval = VALUE\n", keyPath: "tap.interval", domain: Limits.positiveDuration),
        NumberKey(snippet: "[tap]\nslop_mm = VALUE\n", keyPath: "tap.slop_mm", domain: Limits.positiveMillimetres),
        NumberKey(snippet: "[queue]\ncapacity = VALUE\n", keyPath: "queue.capacity", domain: Limits.queueCapacity),
        NumberKey(snippet: "[[window]]\nid = \"w\"\nsize = [VALUE, 10]\n", keyPath: "window[1].size[0]", domain: Limits.windowLength),
        NumberKey(snippet: "[[window]]\nid = \"w\"\nsize = [1, 1]\nlevel = VALUE\n", keyPath: "window[1].level", domain: Limits.plainNumber),
        NumberKey(
            snippet: "[[window]]\nid = \"w\"\nsize = [1, 1]\npoints_per_mm = VALUE\n", keyPath: "window[1].points_per_mm",
            domain: Limits.pointsPerMillimetre),
        NumberKey(snippet: "[[view]]\nid = \"v\"\nparent = \"a\"\nframe = [VALUE, 0, 1, 1]\n", keyPath: "view[4].frame[0]", domain: Limits.coordinate),
        NumberKey(snippet: "[[view]]\nid = \"v\"\nparent = \"a\"\nframe = [0, 0, 1, VALUE]\n", keyPath: "view[4].frame[3]", domain: Limits.length),
        NumberKey(
            snippet: "[[view]]\nid = \"v\"\nparent = \"a\"\nframe = [0, 0, 1, 1]\nbounds_origin = [0, VALUE]\n",
            keyPath: "view[4].bounds_origin[1]", domain: Limits.coordinate),
        NumberKey(
            snippet: "[[view]]\nid = \"v\"\nparent = \"a\"\nframe = [0, 0, 1, 1]\nalpha = VALUE\n", keyPath: "view[4].alpha",
            domain: Limits.alpha),
        NumberKey(
            snippet: "[[view]]\nid = \"v\"\nparent = \"a\"\nframe = [0, 0, 1, 1]\nhit_expansion = VALUE\n", keyPath: "view[4].hit_expansion",
            domain: Limits.length),
        NumberKey(snippet: handlerHead + "tap_count = VALUE\n", keyPath: "handler[0].tap_count", domain: Limits.tapCount),
        NumberKey(snippet: handlerHead + "payload = [VALUE]\n", keyPath: "handler[0].payload[0]", domain: Limits.payloadNumber),
        NumberKey(snippet: gestureHead + "kind = \"tap\"\ntaps = VALUE\n", keyPath: "gesture[0].taps", domain: Limits.gestureCount),
        NumberKey(
            snippet: gestureHead + "kind = \"long_press\"\nduration = VALUE\n", keyPath: "gesture[0].duration", domain: Limits.positiveDuration),
        NumberKey(
            snippet: gestureHead + "kind = \"pan\"\nthreshold_mm = VALUE\n", keyPath: "gesture[0].threshold_mm",
            domain: Limits.positiveMillimetres),
        NumberKey(snippet: gestureHead + "kind = \"pinch\"\nscale = VALUE\n", keyPath: "gesture[0].scale", domain: Limits.pinchScale),
        NumberKey(
            snippet: gestureHead + "kind = \"rotation\"\nangle_degrees = VALUE\n", keyPath: "gesture[0].angle_degrees",
            domain: Limits.positiveDegrees),
        NumberKey(
            snippet: "[[control]]\nview = \"a\"\nkind = \"slider\"\nvalue = VALUE\n", keyPath: "control[0].value", domain: Limits.plainNumber),
        NumberKey(snippet: deviceHead + "region = [0, VALUE, 1, 1]\n", keyPath: "device[0].region[1]", domain: Limits.coordinate),
        NumberKey(snippet: deviceHead + "region = [0, 0, VALUE, 1]\n", keyPath: "device[0].region[2]", domain: Limits.windowLength),
        NumberKey(snippet: deviceHead + "region = [0, 0, 1, VALUE]\n", keyPath: "device[0].region[3]", domain: Limits.windowLength),
        NumberKey(snippet: deviceHead + "rotation = VALUE\n", keyPath: "device[0].rotation", domain: Limits.degrees),
        NumberKey(
            snippet: deviceHead + "calibration = [1, 0, VALUE, 0, 1, 0]\n", keyPath: "device[0].calibration[2]", domain: Limits.plainNumber),
        NumberKey(snippet: deviceHead + "palm_pressure = VALUE\n", keyPath: "device[0].palm_pressure", domain: Limits.deviceUnits),
        NumberKey(
            snippet: "[[device]]\nmatch.kind = \"accelerometer\"\nshake_settle = VALUE\n", keyPath: "device[0].shake_settle",
            domain: Limits.positiveDuration),
        NumberKey(
            snippet: "[[device]]\nmatch.kind = \"accelerometer\"\nshake_threshold_g = VALUE\n", keyPath: "device[0].shake_threshold_g",
            domain: Limits.shakeThreshold),
        NumberKey(snippet: "[daemon]\nallow_users = [VALUE]\n", keyPath: "daemon.allow_users[0]", domain: Limits.unixID),
        NumberKey(snippet: "[daemon]\nmetrics_interval = VALUE\n", keyPath: "daemon.metrics_interval", domain: Limits.metricsInterval),
        NumberKey(
            snippet: "[[control]]\nview = \"a\"\nkind = \"slider\"\nstep = VALUE\n", keyPath: "control[0].step", domain: Limits.sliderStep),
    ]

    /// The keys whose numbers must be written as integers.
    static let wholeKeys: Set<String> = [
        "queue.capacity", "handler[0].tap_count", "gesture[0].taps", "device[0].palm_pressure", "daemon.allow_users[0]",
    ]

    func layout(_ key: NumberKey, _ value: Double) -> String {
        let written = value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
        return layout(key, written)
    }

    func layout(_ key: NumberKey, _ value: String) -> String {
        baseLayout + "\n" + key.snippet.replacingOccurrences(of: "VALUE", with: value)
    }

    /// The line the value is on.
    func valueLine(_ key: NumberKey) -> Int? { line(of: "VALUE", in: baseLayout + "\n" + key.snippet) }

    @Test(arguments: keys)
    func aNumberJustPastItsDomainIsRefusedNamingIt(key: NumberKey) {
        let upper = key.domain.range.upperBound
        let above = Self.wholeKeys.contains(key.keyPath) ? upper + 1 : upper + upper.magnitude * 1e-3 + 1
        check(
            singleIssue(layout(key, above)), kind: .invalidValue, keyPath: key.keyPath, line: valueLine(key),
            mentions: ["is out of range: expected ", "\(key.domain)"])
        let lower = key.domain.range.lowerBound
        let step = Self.wholeKeys.contains(key.keyPath) ? 1 : lower.magnitude * 1e-3 + 1e-3
        let below = key.domain.excludesLowerBound ? lower : lower - step
        check(
            singleIssue(layout(key, below)), kind: .invalidValue, keyPath: key.keyPath, line: valueLine(key),
            mentions: ["is out of range: expected ", "\(key.domain)"])
    }

    @Test(arguments: keys.filter { !wholeKeys.contains($0.keyPath) })
    func infinityAndNaNAreRefusedEverywhere(key: NumberKey) {
        for (value, shown) in [("inf", "inf"), ("-inf", "-inf"), ("nan", "nan"), ("+nan", "nan")] {
            check(
                singleIssue(layout(key, value)), kind: .invalidValue, keyPath: key.keyPath, line: valueLine(key),
                mentions: ["\(shown) is not a finite number: expected \(key.domain)"])
        }
    }

    @Test(arguments: keys.filter { $0.keyPath != "device[0].rotation" })
    func theDomainsBoundsAreAccepted(key: NumberKey) {
        var values = [key.domain.range.upperBound]
        if !key.domain.excludesLowerBound { values.append(key.domain.range.lowerBound) }
        // A slider's value must also lie in its range (0 to 1 unless min and max say otherwise).
        if key.keyPath == "control[0].value" { values = [0, 1] }
        for value in values {
            let found = issues(layout(key, value))
            #expect(found.isEmpty, "\(key.keyPath) = \(value): \(found)")
        }
    }

    @Test func whatCrashedTheDaemonIsRefused() {
        let longPress = Self.gestureHead + "kind = \"long_press\"\nduration = 1e300\n"
        let interval = "[tap]\ninterval = 1e300\n"
        let hugeWindow = "[[window]]\nid = \"w\"\nsize = [1e19, 1e19]\n[[device]]\nwindow = \"w\"\npointercal = \"/etc/pointercal\"\n"
        let farSiblings = """
            [[view]]
            id = "left"
            parent = "a"
            frame = [-1.7e308, 0, 1, 1]
            [[view]]
            id = "right"
            parent = "a"
            frame = [1.7e308, 0, 1, 1]
            """
        for (snippet, paths) in [
            (longPress, ["gesture[0].duration"]), (interval, ["tap.interval"]), (hugeWindow, ["window[1].size[0]", "window[1].size[1]"]),
            (farSiblings, ["view[4].frame[0]", "view[5].frame[0]"]),
        ] {
            let found = issues(baseLayout + "\n" + snippet)
            #expect(found.map(\.keyPath) == paths, "\(found)")
            #expect(found.allSatisfy { $0.kind == .invalidValue && $0.line != nil && $0.message.contains("is out of range") })
        }
    }
}
