/// The anomalies a decoder met since its owner last took them: at most
/// ``maximumPending`` kept, later ones only counted, so a stream full of faults cannot make a
/// decoder grow without bound.
struct AnomalyLog: Sendable {
    /// The most anomalies kept until ``take()``.
    static let maximumPending = 256

    /// Kept anomalies, oldest first.
    private(set) var pending: [DeviceAnomaly] = []
    /// Anomalies not kept because ``pending`` was full.
    private(set) var droppedCount = 0

    mutating func record(_ anomaly: DeviceAnomaly) {
        if pending.count < Self.maximumPending {
            pending.append(anomaly)
        } else {
            droppedCount += 1
        }
    }

    mutating func record(_ anomalies: [DeviceAnomaly]) {
        for anomaly in anomalies { record(anomaly) }
    }

    /// Returns and forgets the kept anomalies (and the count of those not kept).
    mutating func take() -> [DeviceAnomaly] {
        defer {
            pending.removeAll()
            droppedCount = 0
        }
        return pending
    }
}
