import TouchCore
import TouchEvdev

extension ContactSizeReport {
    /// `touchd measure --json`: `units_per_mm` (null without a resolution), each contact (its
    /// id, when it began and last changed in seconds from the measurement's start, its frames,
    /// its largest touch major, in device units and millimetres, and pressure, null where the
    /// device has no such axis, and whether the device flagged it a palm, `MT_TOOL_PALM`), then
    /// for `palm_touch_major` and `palm_pressure` the distribution of the contacts' largest
    /// values, how many there were, the suggested threshold (or null) and why.
    public var json: JSONValue {
        let contacts: [JSONValue] = contacts.map { c in
            .object([
                ("contact", .int(Int64(clamping: c.id))), ("began", .double(secondsFromStart(c.began))),
                ("ended", .double(secondsFromStart(c.last))),
                ("frames", .int(Int64(c.frames))), ("touch_major", c.largestTouchMajor.map { .int(Int64($0)) } ?? .null),
                ("touch_major_mm", c.largestTouchMajor.flatMap { v in unitsPerMillimetre.map { .double(Double(v) / $0) } } ?? .null),
                ("pressure", c.largestPressure.map { .int(Int64($0)) } ?? .null), ("flagged_palm", .bool(c.flaggedPalm)),
            ])
        }
        return .object([
            ("units_per_mm", unitsPerMillimetre.map { .double($0) } ?? .null), ("contacts", .array(contacts)),
            ("palm_touch_major", touchMajor.json), ("palm_pressure", pressure.json),
        ])
    }
}

extension ContactSizeReport.Measure {
    /// The distribution (`least`, `median`, `p90`, `most`; null without contacts), the number of
    /// contacts, the suggested threshold (null for none) and why.
    var json: JSONValue {
        let (value, reason) = suggestion
        let percentiles: [(String, JSONValue)] = [("least", 0), ("median", 0.5), ("p90", 0.9), ("most", 1)].map { name, fraction in
            (name, percentile(fraction).map { .int(Int64($0)) } ?? .null)
        }
        return .object(
            percentiles + [("contacts", .int(Int64(largest.count))), ("suggested", value.map { .int(Int64($0)) } ?? .null), ("reason", .string(reason))])
    }
}
