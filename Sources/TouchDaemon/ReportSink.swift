import TouchCore

/// Where the daemon's dispatched reports go besides the socket's clients: the windows' virtual
/// touchscreens, TUIO. Each sink is given at `init` (``DaemonServices/sinks``) and told, on the
/// loop, of every application the daemon runs (at start and after each reload), every report it
/// publishes, and its stop.
public protocol ReportSink: AnyObject {
    /// The daemon runs `app` from now on (its layout was loaded or reloaded); the touches of the
    /// previous one were cancelled already.
    func applicationChanged(_ app: Application)
    /// A report the daemon publishes, in order.
    func deliver(_ report: DispatchReport)
    /// Steps of forwarded touches that went on as their frame arrived, ahead of its dispatch
    /// (``TouchCore/Application/forwardAhead(_:)``), in order with the reports: those reports do
    /// not carry them again.
    func deliverAhead(_ forwarded: [ForwardedTouch])
    /// The daemon stops; every touch was cancelled already.
    func stop()
}
