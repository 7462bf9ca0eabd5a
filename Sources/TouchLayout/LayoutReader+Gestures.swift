import TouchCore

/// `[[gesture]]`, read into the core's ``TouchCore/GestureRecognizerSpec``: a kind starts from
/// the core's defaults for it (``TouchCore/GestureKind/defaults``) and the entry's own keys
/// change them.
extension LayoutReader {
    static let gestureKeys = [
        "id", "view", "kind", "taps", "touches", "min_touches", "max_touches", "duration", "movement_mm", "threshold_mm",
        "directions", "distance_mm", "max_duration", "scale", "angle_degrees", "cancels_touches_in_view",
        "delays_touches_began", "delays_touches_ended", "requires_failure_of", "simultaneous_with", "action", "payload",
    ]
    /// Keys every kind takes.
    static let gestureCommonKeys = [
        "id", "view", "kind", "cancels_touches_in_view", "delays_touches_began", "delays_touches_ended", "requires_failure_of",
        "simultaneous_with", "action", "payload",
    ]
    static let gestureAliases = [
        "cancelsTouchesInView": "cancels_touches_in_view", "delaysTouchesBegan": "delays_touches_began",
        "delaysTouchesEnded": "delays_touches_ended", "numberOfTapsRequired": "taps", "numberOfTouchesRequired": "touches",
        "minimumPressDuration": "duration", "type": "kind",
    ]

    /// The keys that configure one kind only; a key of another kind is an error.
    static func gestureKindKeys(_ kind: GestureKind) -> [String] {
        switch kind {
        case .tap: ["taps", "touches"]
        case .longPress: ["touches", "duration", "movement_mm"]
        case .pan: ["min_touches", "max_touches", "threshold_mm"]
        case .swipe: ["directions", "touches", "distance_mm", "max_duration"]
        case .pinch: ["scale"]
        case .rotation: ["angle_degrees"]
        }
    }

    func readGesture(_ fields: Fields) -> GestureRecognizerSpec {
        let id = readID(fields, what: "gesture")
        let view = reference(fields, "view", required: true, expect: "the id of the [[view]] it is attached to")
        let kinds = GestureKind.defaults.map { ($0.name, $0) }
        let kind = fields.choice("kind", kinds)
        if !fields.has("kind") { fields.missing("kind", "one of " + kinds.map { quote($0.0) }.joined(separator: ", ")) }
        var spec = GestureRecognizerSpec(id: id, view: view ?? "", kind: kind.map { readSettings(of: $0, fields) } ?? .defaultTap)
        if let b = fields.bool("cancels_touches_in_view") { spec.cancelsTouchesInView = b }
        if let b = fields.bool("delays_touches_began") { spec.delaysTouchesBegan = b }
        if let b = fields.bool("delays_touches_ended") { spec.delaysTouchesEnded = b }
        spec.requiresFailureOf = idList(fields, "requires_failure_of", expect: "an array of gesture ids") ?? []
        spec.recognizesSimultaneouslyWith = idList(fields, "simultaneous_with", expect: "an array of gesture ids") ?? []
        spec.action = fields.identifier("action", expect: "a non-empty action name")
        if let payload = fields.values["payload"].flatMap({ payloadValue($0, at: fields.at("payload")) }) {
            spec.payload = payload
        }
        checkTouchRange(fields)
        if let kind {
            let own = Self.gestureKindKeys(kind)
            for key in fields.values.keys.sorted()
            where Self.gestureKeys.contains(key) && !Self.gestureCommonKeys.contains(key) && !own.contains(key) {
                log.add(.conflict, fields.at(key), "\(quote(key)) does not apply to a \(kind.name) gesture: expected only \(own.map(quote).joined(separator: ", ")) besides the keys every gesture takes")
            }
        }
        fields.rejectUnknownKeys(Self.gestureKeys, what: "a [[gesture]]", aliases: Self.gestureAliases)
        return spec
    }

    /// The kind with the entry's own settings in place of the defaults it comes with.
    private func readSettings(of kind: GestureKind, _ fields: Fields) -> GestureKind {
        func count(_ key: String, _ value: Int) -> Int { fields.integer(key, in: Limits.gestureCount) ?? value }
        func duration(_ key: String, _ value: TimeSpan) -> TimeSpan { fields.duration(key, in: Limits.positiveDuration) ?? value }
        func distance(_ key: String, _ value: Millimetres) -> Millimetres { fields.length(key, in: Limits.positiveMillimetres) ?? value }
        switch kind {
        case .tap(let taps, let touches):
            return .tap(taps: count("taps", taps), touches: count("touches", touches))
        case .longPress(let minimumDuration, let movement, let touches):
            return .longPress(
                minimumDuration: duration("duration", minimumDuration),
                allowableMovementMillimetres: distance("movement_mm", movement), touches: count("touches", touches))
        case .pan(let minimumTouches, let maximumTouches, let threshold):
            return .pan(
                minimumTouches: count("min_touches", minimumTouches), maximumTouches: count("max_touches", maximumTouches),
                thresholdMillimetres: distance("threshold_mm", threshold))
        case .swipe(let directions, let touches, let minimumDistance, let maximumDuration):
            return .swipe(
                directions: readDirections(fields) ?? directions, touches: count("touches", touches),
                minimumDistanceMillimetres: distance("distance_mm", minimumDistance),
                maximumDuration: duration("max_duration", maximumDuration))
        case .pinch(let threshold):
            return .pinch(threshold: fields.number("scale", in: Limits.pinchScale) ?? threshold)
        case .rotation(let threshold):
            let degrees = fields.number("angle_degrees", in: Limits.positiveDegrees)
            return .rotation(thresholdRadians: degrees.map { $0 * Double.pi / 180 } ?? threshold)
        }
    }

    /// `min_touches` must not be more than `max_touches` (compared whatever the kind, when both are
    /// whole numbers in their domain; a kind other than a pan is also told the keys are not its own).
    private func checkTouchRange(_ fields: Fields) {
        guard case .integer(let minimum) = fields.values["min_touches"], case .integer(let maximum) = fields.values["max_touches"],
            Limits.gestureCount.contains(Double(minimum)), Limits.gestureCount.contains(Double(maximum)), minimum > maximum
        else { return }
        log.add(.conflict, fields.at("min_touches"), "min_touches \(minimum) is more than max_touches \(maximum): expected min_touches <= max_touches")
    }

    /// A swipe's `directions`: at least one of the four names.
    private func readDirections(_ fields: Fields) -> SwipeDirections? {
        let expect = "\"left\", \"right\", \"up\" or \"down\""
        guard let names = stringList(fields, "directions", expect: "an array of directions: \(expect)") else { return nil }
        var directions = SwipeDirections()
        for (i, name) in names.enumerated() {
            guard let direction = SwipeDirections.named.first(where: { $0.name == name })?.direction else {
                log.add(.invalidValue, fields.at("directions").appending(index: i), "\(quote(name)) is not a direction: expected \(expect)")
                continue
            }
            directions.insert(direction)
        }
        if names.isEmpty { log.add(.invalidValue, fields.at("directions"), "no direction: expected at least one") }
        return directions.isEmpty ? nil : directions
    }

    /// An array of ids (of at most ``Limits/maximumLayoutEntries``).
    func idList(_ fields: Fields, _ key: String, expect: String) -> [ResponderID]? {
        stringList(fields, key, expect: expect, identifiers: true)?.map { ResponderID($0) }
    }

    /// An array of non-empty strings (identifiers when `identifiers`), of at most
    /// ``Limits/maximumLayoutEntries``; nil when anything is wrong with it (after saying what).
    func stringList(_ fields: Fields, _ key: String, expect: String, identifiers: Bool = false) -> [String]? {
        guard let node = fields.values[key] else { return nil }
        guard case .array(let items) = node else {
            fields.wrongType(fields.at(key), node, expect)
            return nil
        }
        guard items.count <= Limits.maximumLayoutEntries else {
            log.add(.exceedsLimit, fields.at(key), "\(items.count) elements: expected \(expect) of at most \(Limits.maximumLayoutEntries)")
            return nil
        }
        var result: [String] = []
        for (i, item) in items.enumerated() {
            let path = fields.at(key).appending(index: i)
            let element =
                identifiers
                ? fields.checkedIdentifier(item, at: path, expect: "a non-empty string")
                : fields.checkedString(item, at: path, expect: "a non-empty string")
            guard let element else { return nil }
            result.append(element)
        }
        return result
    }
}
