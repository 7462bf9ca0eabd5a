import TouchSystem

extension Daemon {
    /// What follows reading a layout, at start and after every reload (accepted or refused): the
    /// heaps' free pages and the code pages go back (``MemoryRelease/giveBack()``) when the
    /// services ask for it (``DaemonServices/givesMemoryBack``), then the warm-up (``warmUp()``)
    /// brings in the code a touch runs, so the first touch after either finds it mapped. A refusal
    /// by the kernel is an anomaly, no more: nothing the daemon does depends on it.
    func settleAfterReadingLayout() {
        if services.givesMemoryBack {
            do {
                try MemoryRelease.giveBack()
            } catch {
                observer.anomaly("memory: \(error)")
            }
        }
        warmUp()
    }
}
