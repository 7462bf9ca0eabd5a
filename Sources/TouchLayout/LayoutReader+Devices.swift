import TouchCore
import TouchEvdev

/// `[[device]]` and its `match`.
extension LayoutReader {
    static let shakeKeys = ["shake_threshold_g", "shake_duration", "shake_settle"]
    static let deviceKeys = [
        "match", "window", "region", "rotation", "swap_axes", "invert_x", "invert_y", "calibration",
        "udev_calibration", "pointercal", "calibration_file", "grab", "palm_pressure", "palm_touch_major", "ignore",
    ] + shakeKeys
    static let matchKeys = ["kind", "name", "usb", "id_path", "id_serial", "devnode"]
    static let deviceAliases = [
        "name": "match.name", "kind": "match.kind", "usb": "match.usb", "id_path": "match.id_path",
        "id_serial": "match.id_serial", "devnode": "match.devnode", "threshold_g": "shake_threshold_g",
        "shake_threshold": "shake_threshold_g", "duration": "shake_duration", "settle": "shake_settle",
    ]
    /// `calibration`: a libinput matrix's six coefficients, each a plain number.
    static let calibrationElements = ["a", "b", "c", "d", "e", "f"].map { NumberElement($0, Limits.plainNumber) }

    func readDevice(_ fields: Fields) -> DeviceSpec {
        var match = DeviceMatchSpec()
        if let matchFields = fields.table("match", expect: "a table of match criteria, e.g. match.kind = \"touchscreen\"") {
            match = readMatch(matchFields)
        }
        // Key devices and accelerometers may leave the window out: their events go to the key
        // window. An entry that ignores its devices needs none either.
        let ignore = fields.bool("ignore") ?? false
        let window = fields.identifier(
            "window", required: match.kind.isTouch && !ignore,
            expect: match.kind.isTouch ? "the id of the [[window]] the device feeds" : "the id of the [[window]] whose first responder gets the events")
        var spec = DeviceSpec(match: match, window: window ?? "")
        spec.region = fields.numbers("region", NumberElement.area, expect: "[x, y, width, height] in window points")
            .map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        spec.rotation = readRotation(fields) ?? .none
        if let b = fields.bool("swap_axes") { spec.swapAxes = b }
        if let b = fields.bool("invert_x") { spec.invertX = b }
        if let b = fields.bool("invert_y") { spec.invertY = b }
        spec.calibration = fields.numbers(
            "calibration", Self.calibrationElements, expect: "[a, b, c, d, e, f] (a libinput calibration matrix)")
        if let c = spec.calibration, c.count == 6, CalibrationMatrix(a: c[0], b: c[1], c: c[2], d: c[3], e: c[4], f: c[5]).flattensThePlane {
            log.add(
                .invalidValue, fields.at("calibration"),
                "the matrix maps the whole screen onto one line (a·e − b·d is 0): expected a matrix that keeps the plane, "
                    + "as the identity [1, 0, 0, 0, 1, 0] does")
        }
        if let b = fields.bool("udev_calibration") { spec.usesUdevCalibration = b }
        spec.pointercal = fields.string("pointercal", expect: "the path of a tslib pointercal file").map(resolve)
        if fields.has("calibration") && fields.has("pointercal") {
            log.add(.conflict, fields.at("pointercal"), "pointercal and calibration are both set: expected at most one of them")
        }
        spec.calibrationFile = fields.string("calibration_file", expect: "the path of the calibration file a calibration session writes")
            .map(resolve)
        for other in ["calibration", "pointercal"] where fields.has("calibration_file") && fields.has(other) {
            log.add(
                .conflict, fields.at("calibration_file"),
                "calibration_file and \(other) are both set: expected at most one of them (a calibration session writes calibration_file)")
        }
        if let b = fields.bool("grab") { spec.grab = b }
        spec.ignore = ignore
        spec.palmPressure = fields.integer("palm_pressure", in: Limits.deviceUnits)
        spec.palmTouchMajor = fields.integer("palm_touch_major", in: Limits.deviceUnits)
        spec.shake = readShake(fields, kind: match.kind)
        fields.rejectUnknownKeys(Self.deviceKeys, what: "a [[device]]", aliases: Self.deviceAliases)
        return spec
    }

    /// The shake settings, which only an accelerometer's entry may have.
    private func readShake(_ fields: Fields, kind: DeviceKindSpec) -> ShakeSpec {
        var shake = ShakeSpec()
        if let n = fields.number("shake_threshold_g", in: Limits.shakeThreshold) { shake.thresholdG = n }
        if let n = fields.duration("shake_duration", in: Limits.positiveDuration) { shake.minimumDuration = n }
        if let n = fields.duration("shake_settle", in: Limits.positiveDuration) { shake.settle = n }
        for key in Self.shakeKeys where fields.has(key) && kind != .accelerometer {
            log.add(.conflict, fields.at(key), "\(key) only goes with match.kind = \"accelerometer\": expected no \(key) for kind \(quote(kind.rawValue))")
        }
        return shake
    }

    /// `rotation`: 0, 90, 180 or 270 degrees, written as an integer or a float.
    private func readRotation(_ fields: Fields) -> Rotation? {
        let expect = "0, 90, 180 or 270 (degrees clockwise)"
        guard let node = fields.values["rotation"] else { return nil }
        guard let degrees = fields.checkedNumber(node, at: fields.at("rotation"), in: Limits.degrees) else { return nil }
        guard let whole = Int(exactly: degrees), let rotation = Rotation(rawValue: whole) else {
            log.add(.invalidValue, fields.at("rotation"), "\(node.shortText) is not a rotation: expected \(expect)")
            return nil
        }
        return rotation
    }

    private func readMatch(_ fields: Fields) -> DeviceMatchSpec {
        let kind = fields.choice("kind", DeviceKindSpec.allCases.map { ($0.rawValue, $0) })
        let globExpect = "a glob over the device name (* ? [...])"
        var name = fields.identifier("name", expect: globExpect)
        if let pattern = name, let problem = Glob.problem(in: pattern) {
            log.add(.invalidValue, fields.at("name"), "\(quote(pattern)) is not a valid glob (\(problem)): expected \(globExpect)")
            name = nil
        }
        var usb: USBID?
        let usbExpect = "\"vvvv:pppp\": the USB vendor and product ids, four hexadecimal digits each"
        if let text = fields.string("usb", expect: usbExpect) {
            usb = USBID(text)
            if usb == nil {
                log.add(.invalidValue, fields.at("usb"), "\(fields.values["usb"]?.shortText ?? "") is not a USB id: expected \(usbExpect)")
            }
        }
        let idPath = fields.string("id_path", expect: "udev's ID_PATH of the device")
        let idSerial = fields.string("id_serial", expect: "udev's ID_SERIAL of the device")
        let devnode = fields.string("devnode", expect: "a device node path such as /dev/input/event5")
        fields.rejectUnknownKeys(Self.matchKeys, what: "match")
        return DeviceMatchSpec(
            kind: kind ?? .any, name: name, usb: usb, idPath: idPath, idSerial: idSerial, devnode: devnode)
    }
}
