import TouchCore
import TouchEvdev
import TouchInput
import TouchProtocol
import TouchSystem

extension Daemon {
    func perform(_ request: DeviceSessionRequest, for client: SocketServer.ClientHandle) -> RequestResult {
        switch request {
        case .record(let device): startRecording(device, for: client)
        case .stopRecording(let device): stopRecording(device, for: client)
        case .calibrate(let device, let targets): startCalibration(device, targets: targets, for: client)
        case .calibrationPoint(let sample, let target): assignCalibrationPoint(sample: sample, target: target, for: client)
        case .finishCalibration: finishCalibration(for: client)
        case .cancelCalibration: cancelCalibration(for: client)
        }
    }

    // MARK: - Recording

    /// Starts sending `client` the raw events of `device` (every touch device present: nil); the
    /// reply gives each device's description as evemu text.
    private func startRecording(_ device: String?, for client: SocketServer.ClientHandle) -> RequestResult {
        let present = input.sessionDevices
        let chosen: [SessionDevice]
        if let device {
            guard let found = present.first(where: { $0.id == device }) else { return .failure(unknownDevice(device, among: present)) }
            chosen = [found]
        } else {
            chosen = present.filter { $0.facts.kind.isTouch }
            guard !chosen.isEmpty else { return .failure(RequestError(.noDevice, "no touch device is present to record")) }
        }
        for found in chosen {
            deviceSessions.record(found.id, by: client)
            input.setRecording(found.id, true)
            observer.deviceSession("recording started\(describe(client))", device: found.id)
        }
        loop.deferWork { [weak self] in self?.input.subscriberArrived() }
        return .success(
            RecordingReply.started(
                chosen.map { RecordingReply.Device(id: $0.id, facts: $0.facts) }))
    }

    private func stopRecording(_ device: String?, for client: SocketServer.ClientHandle) -> RequestResult {
        let stopped = deviceSessions.stopRecording(device, by: client)
        if let device, stopped.isEmpty {
            return .failure(RequestError(.notRecording, "this connection does not record \"\(excerpt(device))\""))
        }
        for id in stopped where !deviceSessions.isRecorded(id) { input.setRecording(id, false) }
        for id in stopped { observer.deviceSession("recording stopped\(describe(client))", device: id) }
        return .success(RecordingReply.stopped(stopped))
    }

    /// Sends a recorded device's events to every client that records it.
    func publishRaw(device: String, events: [InputEvent]) {
        let clients = deviceSessions.recorders(of: device)
        guard !clients.isEmpty else { return }
        let message = MessageEncoder.raw(device: device, events: events.map(Self.rawFields))
        for client in clients { server.send(message, to: client) }
    }

    static func rawFields(_ event: InputEvent) -> RawEventFields {
        let micros = max(event.time.microseconds, 0)
        return RawEventFields(
            seconds: micros / 1_000_000, microseconds: micros % 1_000_000, type: event.type, code: event.code, value: event.value)
    }

    // MARK: - Calibration

    /// Starts calibrating a touch device for `client`: its touches in progress are cancelled, and
    /// from now on its raw touches go to the client instead of the application.
    private func startCalibration(_ device: String?, targets: [Point]?, for client: SocketServer.ClientHandle) -> RequestResult {
        if let running = deviceSessions.calibratedDevice(of: client) {
            return .failure(RequestError(.busy, "this connection calibrates \"\(running)\" already: finish or cancel that first"))
        }
        let found: SessionDevice
        switch chooseTouchDevice(device) {
        case .success(let device): found = device
        case .failure(let error): return .failure(error)
        }
        guard let pipeline = found.touch else {
            return .failure(RequestError(.notATouchDevice, "\"\(found.id)\" is a \(found.facts.kind.rawValue), not a touch device"))
        }
        if let other = deviceSessions.calibrations[found.id], other.client != client {
            return .failure(RequestError(.busy, "another connection calibrates \"\(found.id)\" now"))
        }
        let session: CalibrationSession
        do {
            session = try CalibrationSession(pipeline: pipeline, targets: targets)
        } catch {
            return .failure(RequestError(.badArgument, "\"targets\": \(error)"))
        }
        cancelTouches(ofDevice: found.id)
        deviceSessions.endedCalibrations[client] = nil
        deviceSessions.calibrations[found.id] = DeviceSessions.Calibration(client: client, session: session, file: found.calibrationFile)
        input.setHeld(found.id, true)
        observer.deviceSession("calibration started\(describe(client)): its touches are held from the application", device: found.id)
        loop.deferWork { [weak self] in self?.input.subscriberArrived() }
        return .success(CalibrationReply.started(session, file: found.calibrationFile))
    }

    /// The device a `calibrate` request names, or the only touch device present.
    private func chooseTouchDevice(_ device: String?) -> Result<SessionDevice, RequestError> {
        let present = input.sessionDevices
        if let device {
            guard let found = present.first(where: { $0.id == device }) else { return .failure(unknownDevice(device, among: present)) }
            return .success(found)
        }
        let touch = present.filter { $0.touch != nil }
        guard touch.count == 1 else {
            let listed = touch.isEmpty ? "none is present" : "\(touch.count) are present: " + touch.map(\.id).joined(separator: ", ")
            return .failure(RequestError(.badArgument, "\"device\" is required when there is not exactly one touch device: \(listed)"))
        }
        return .success(touch[0])
    }

    private func assignCalibrationPoint(sample: Int, target: Int, for client: SocketServer.ClientHandle) -> RequestResult {
        guard let device = deviceSessions.calibratedDevice(of: client) else { return .failure(noCalibration(for: client)) }
        do {
            try deviceSessions.calibrations[device]?.session.assign(sample: sample, toTarget: target)
        } catch {
            return .failure(RequestError(.badArgument, "\(error)"))
        }
        return .success(CalibrationReply.assigned(target: target, sample: sample))
    }

    /// Fits the calibration, applies it at once to every device of the entry, keeps it in the
    /// entry's `calibration_file`, and ends the session. A fit that fails leaves the session open.
    private func finishCalibration(for client: SocketServer.ClientHandle) -> RequestResult {
        guard let device = deviceSessions.calibratedDevice(of: client), let calibration = deviceSessions.calibrations[device] else {
            return .failure(noCalibration(for: client))
        }
        let outcome: CalibrationOutcome
        do {
            outcome = try calibration.session.fit()
        } catch {
            return .failure(RequestError(.calibrationFailed, "\(error)"))
        }
        endCalibration(of: device)
        dispatchQueued()
        for other in input.applyCalibration(outcome.matrix, toEntryOf: device) where other != device { cancelTouches(ofDevice: other) }
        var kept: Result<String, FileWriteError>?
        if let path = calibration.file {
            do {
                try CalibrationFiles.save(outcome.file(device: device), to: path)
                kept = .success(path)
            } catch {
                kept = .failure(error)
            }
        }
        let worst = formatNumber(outcome.worstResidualMillimetres.value)
        observer.deviceSession(
            "calibration applied (matrix \(outcome.matrix), worst residual \(worst) mm)\(describe(client)); " + Self.keptText(kept), device: device)
        let file: String? = switch kept {
        case .success(let path)?: path
        case .failure(let error)?: error.path
        case nil: nil
        }
        let reason: String? = if case .success? = kept { nil } else { Self.keptText(kept) }
        return .success(CalibrationReply.finished(outcome, device: device, file: file, notKeptBecause: reason))
    }

    private func cancelCalibration(for client: SocketServer.ClientHandle) -> RequestResult {
        guard let device = deviceSessions.calibratedDevice(of: client) else { return .failure(noCalibration(for: client)) }
        endCalibration(of: device)
        observer.deviceSession("calibration cancelled\(describe(client)): nothing changed", device: device)
        return .success(ReplyResult.done)
    }

    /// Ends a device's calibration session: the device is let go (fingers down stay out until
    /// they lift).
    private func endCalibration(of device: String) {
        guard deviceSessions.calibrations.removeValue(forKey: device) != nil else { return }
        input.setHeld(device, false)
    }

    /// Hands a held device's raw frames to its calibration session, and the client what they told.
    func calibrationFrames(device: String, frames: [ContactFrame]) {
        guard var calibration = deviceSessions.calibrations[device] else { return }
        var messages: [OutboundMessage] = []
        for frame in frames {
            for observation in calibration.session.observe(frame) {
                switch observation {
                case .touchDown(let contact, let x, let y, let time):
                    messages.append(MessageEncoder.calibrationTouch(device: device, contact: contact, x: x, y: y, time: time.inputTime.seconds))
                case .sample(let sample):
                    messages.append(
                        MessageEncoder.calibrationSample(device: device, sample: sample.number, x: sample.x, y: sample.y, time: sample.time.inputTime.seconds))
                }
            }
        }
        deviceSessions.calibrations[device] = calibration
        for message in messages { server.send(message, to: calibration.client) }
    }

    // MARK: - Ends

    /// A device went away: whoever recorded or calibrated it is told.
    func endDeviceSessions(ofDevice device: String, reason: String) {
        for client in deviceSessions.endRecordings(of: device) {
            server.send(MessageEncoder.recordingEnded(device: device, reason: reason), to: client)
        }
        if !deviceSessions.isRecorded(device) { input.setRecording(device, false) }
        if let calibration = deviceSessions.calibrations[device] {
            endCalibration(of: device)
            deviceSessions.endedCalibrations[calibration.client] = (device, reason)
            server.send(MessageEncoder.calibrationEnded(device: device, reason: reason), to: calibration.client)
        }
    }

    /// Every calibration ends (a reload replaced the layout its targets and mapping came from).
    func endCalibrations(reason: String) {
        for (device, calibration) in deviceSessions.calibrations.sorted(by: { $0.key < $1.key }) {
            endCalibration(of: device)
            deviceSessions.endedCalibrations[calibration.client] = (device, reason)
            server.send(MessageEncoder.calibrationEnded(device: device, reason: reason), to: calibration.client)
        }
    }

    /// A client left: its recordings stop and its calibration is cancelled.
    func endDeviceSessions(of client: SocketServer.ClientHandle) {
        deviceSessions.endedCalibrations[client] = nil
        for device in deviceSessions.stopRecording(nil, by: client) where !deviceSessions.isRecorded(device) {
            input.setRecording(device, false)
        }
        if let device = deviceSessions.calibratedDevice(of: client) {
            endCalibration(of: device)
            observer.deviceSession("calibration cancelled: its client left", device: device)
        }
    }

    // MARK: - Replies

    /// The reply to a calibration request from a client that calibrates nothing: why its last
    /// calibration ended when it ended without the client's asking, else that it never began.
    private func noCalibration(for client: SocketServer.ClientHandle) -> RequestError {
        if let ended = deviceSessions.endedCalibrations[client] {
            return RequestError(
                .noCalibration, "the calibration of \"\(ended.device)\" ended: \(ended.reason); nothing changed; send calibrate to begin again")
        }
        return RequestError(.noCalibration, "this connection calibrates no device: send calibrate first")
    }

    private func unknownDevice(_ device: String, among present: [SessionDevice]) -> RequestError {
        let listed = present.isEmpty ? "none is present" : "present: " + present.map(\.id).joined(separator: ", ")
        return RequestError(.unknownDevice, "no device \"\(excerpt(device))\": expected a device's identity as `devices` lists it (\(listed))")
    }

    private func describe(_ client: SocketServer.ClientHandle) -> String {
        server.credentials(of: client).map { " by \($0)" } ?? ""
    }

    private static func keptText(_ kept: Result<String, FileWriteError>?) -> String {
        switch kept {
        case .success(let path)?: "kept in \(path)"
        case .failure(let error)?: "not kept: \(error)"
        case nil: "not kept: the device's [[device]] entry names no calibration_file (it lasts until the next reload or restart)"
        }
    }
}

extension CalibrationReply {
    /// `finish_calibration`'s reply (and `touchd calibrate --json`'s output) for `outcome`.
    public static func finished(_ outcome: CalibrationOutcome, device: String, file: String?, notKeptBecause: String?) -> JSONValue {
        finished(
            matrix: outcome.matrix.coefficients,
            targets: outcome.points.map { point in
                Target(
                    index: point.targetIndex, point: point.target, sample: point.sample.number, landed: point.landed,
                    residualMillimetres: point.residualMillimetres)
            },
            worstResidualMillimetres: outcome.worstResidualMillimetres, meanResidualMillimetres: outcome.meanResidualMillimetres,
            device: device, file: file, notKeptBecause: notKeptBecause)
    }

    /// `calibrate`'s reply for `session`, whose calibration will be kept in `file`.
    static func started(_ session: CalibrationSession, file: String?) -> JSONValue {
        let target = session.mapping.target
        return started(
            device: session.deviceID, window: session.window, windowSize: target.windowSize, region: target.effectiveRegion,
            pointsPerMillimetre: target.pointsPerMillimetre, targets: session.targets, file: file)
    }
}
