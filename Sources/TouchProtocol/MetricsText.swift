/// The daemon's figures (``StatsCounters``) as a metrics file for Prometheus' node_exporter textfile
/// collector: the Prometheus text exposition format (version 0.0.4), which that collector reads.
///
/// Each figure is a metric named `touchd_` and its name in the `stats` reply, with a `# HELP` and a
/// `# TYPE` line; a counter's name ends in `_total`, as Prometheus and OpenMetrics name counters.
/// The family is named with the `_total` too (`# TYPE touchd_touches_began_total counter`): the
/// collector of node_exporter 1.5 (Debian 12) reads only the text format, where an OpenMetrics
/// family named without it (`# TYPE touchd_touches_began counter`) would leave the counter untyped.
public enum MetricsText {
    /// The metrics file's text.
    public static func prometheus(_ counters: StatsCounters) -> String {
        var text = ""
        for figure in counters.described {
            let name = "touchd_" + figure.name + (figure.kind == .counter ? "_total" : "")
            text += "# HELP \(name) \(figure.help)\n# TYPE \(name) \(figure.kind.rawValue)\n\(name) \(figure.value)\n"
        }
        return text
    }
}
