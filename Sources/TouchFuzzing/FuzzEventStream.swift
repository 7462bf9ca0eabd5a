import TouchCore
import TouchEvdev

/// Kernel events chosen by fuzzer bytes, grouped into the reads a device gives: each event is a
/// code an assembler reads (or any code) and a value, small, signed, extreme or raw; time moves on
/// at each `SYN_REPORT` and may jump back.
struct FuzzEventStream {
    private(set) var time = EventTime(microseconds: 1_000_000)

    /// The codes events are picked from; `nil` entries are markers (any code, a time jump, a sync
    /// delta, the end of a read, a removal).
    private static let codes: [(type: UInt16, code: UInt16)?] = [
        (EventType.syn, SynCode.report), (EventType.syn, SynCode.report), (EventType.syn, SynCode.mtReport),
        (EventType.syn, SynCode.dropped), (EventType.abs, AbsCode.mtSlot), (EventType.abs, AbsCode.mtTrackingID),
        (EventType.abs, AbsCode.mtPositionX), (EventType.abs, AbsCode.mtPositionY), (EventType.abs, AbsCode.x),
        (EventType.abs, AbsCode.y), (EventType.abs, AbsCode.mtPressure), (EventType.abs, AbsCode.pressure),
        (EventType.abs, AbsCode.mtTouchMajor), (EventType.abs, AbsCode.mtWidthMajor), (EventType.abs, AbsCode.mtToolType),
        (EventType.key, KeyCode.btnTouch), (EventType.key, KeyCode.btnToolFinger), (EventType.key, KeyCode.btnToolDoubleTap),
        (EventType.key, KeyCode.btnToolTripleTap), (EventType.key, KeyCode.btnToolPen), (EventType.msc, MscCode.timestamp),
        (EventType.abs, AbsCode.mtBlobID), (EventType.abs, AbsCode.mtDistance), (EventType.abs, AbsCode.mtTrackingID),
        (EventType.abs, AbsCode.mtSlot), (EventType.syn, SynCode.report), nil, nil, nil, nil, nil, nil,
    ]

    /// The next read: events until the input ends or a marker ends the read.
    mutating func nextRead(from input: inout FuzzBytes) -> DeviceRead {
        var read = DeviceRead()
        var events: [InputEvent] = []
        while !input.isAtEnd {
            let pick = input.byte()
            let index = Int(pick) % Self.codes.count
            if let (type, code) = Self.codes[index] {
                events.append(event(type: type, code: code, form: pick >> 5, input: &input))
                continue
            }
            switch index - 26 {
            case 0: events.append(event(type: UInt16(input.byte() & 0x1f), code: input.uint16() & 0x2ff, form: pick >> 5, input: &input))
            case 1: time = EventTime(microseconds: time.microseconds &+ Int64(Int8(bitPattern: input.byte())) * 10_000)
            case 2:
                if !events.isEmpty { read.segments.append(.events(events)) }
                events = []
                read.segments.append(resync(&input))
            case 3: read.isRemoval = true
            default: break
            }
            if index - 26 >= 3 { break }
        }
        if !events.isEmpty { read.segments.append(.events(events)) }
        return read
    }

    /// `SYN_DROPPED` and a sync delta of up to 15 events.
    private mutating func resync(_ input: inout FuzzBytes) -> DeviceRead.Segment {
        let dropped = InputEvent(time: time, type: EventType.syn, code: SynCode.dropped, value: 0)
        var delta: [InputEvent] = []
        for _ in 0..<(input.byte() % 16) {
            let pick = input.byte()
            guard let (type, code) = Self.codes[Int(pick) % Self.codes.count] else { continue }
            delta.append(event(type: type, code: code, form: pick >> 5, input: &input))
        }
        return .resync(dropped: dropped, delta: delta)
    }

    private mutating func event(type: UInt16, code: UInt16, form: UInt8, input: inout FuzzBytes) -> InputEvent {
        let value: Int32 =
            switch form {
            case 0: Int32(input.byte())
            case 1: Int32(Int8(bitPattern: input.byte()))
            case 2: input.int32()
            case 3: -1
            case 4: 0
            case 5: 1
            case 6: Int32(input.uint16())
            default: Int32(input.byte() % 8)
            }
        let event = InputEvent(time: time, type: type, code: code, value: value)
        if type == EventType.syn && code == SynCode.report { time = EventTime(microseconds: time.microseconds &+ 8_000) }
        return event
    }
}
