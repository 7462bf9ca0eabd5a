import Testing
import TouchCore
import TouchProtocol

/// OSC packets and TUIO 1.1 cursor bundles, byte for byte.
@Suite struct TUIOTests {
    /// An OSC string: its bytes and one to four zeros, to a multiple of four.
    func s(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return bytes + Array(repeating: 0, count: 4 - bytes.count % 4)
    }

    func i(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)] }
    func f(_ value: Float) -> [UInt8] { i(value.bitPattern) }

    @Test func aMessageIsItsPaddedAddressTagsAndBigEndianArguments() {
        #expect(
            OSC.message("/tuio/2Dcur", [.string("fseq"), .int32(1)]) == [
                0x2f, 0x74, 0x75, 0x69, 0x6f, 0x2f, 0x32, 0x44, 0x63, 0x75, 0x72, 0x00,  // "/tuio/2Dcur" + 1 zero
                0x2c, 0x73, 0x69, 0x00,  // ",si" + 1 zero
                0x66, 0x73, 0x65, 0x71, 0x00, 0x00, 0x00, 0x00,  // "fseq" + 4 zeros
                0x00, 0x00, 0x00, 0x01,
            ])
        #expect(OSC.message("/a", [.float32(0.5), .int32(-2)]) == [0x2f, 0x61, 0, 0, 0x2c, 0x66, 0x69, 0, 0x3f, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe])
        #expect(OSC.message("/x", []) == [0x2f, 0x78, 0, 0, 0x2c, 0, 0, 0], "no arguments: a lone comma")
    }

    @Test func aBundleIsItsHeaderTimeTagAndSizedElements() {
        let message = OSC.message("/a", [])
        #expect(
            OSC.bundle([message, message]) == Array("#bundle".utf8) + [0] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 8] + message + [0, 0, 0, 8] + message)
    }

    @Test func aCursorThatLandsIsAliveAndSet() {
        var cursors = TUIOCursors(source: "touchd")
        let bundle = cursors.bundles(for: [TUIOCursors.Update(touch: 7, phase: .began, x: 0.25, y: 0.5, time: 1)]).last
        let source = s("/tuio/2Dcur") + s(",ss") + s("source") + s("touchd")
        let alive = s("/tuio/2Dcur") + s(",si") + s("alive") + i(7)
        let set = s("/tuio/2Dcur") + s(",sifffff") + s("set") + i(7) + f(0.25) + f(0.5) + f(0) + f(0) + f(0)
        let fseq = s("/tuio/2Dcur") + s(",si") + s("fseq") + i(1)
        var expected = Array("#bundle".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
        for message in [source, alive, set, fseq] { expected += i(UInt32(message.count)) + message }
        #expect(bundle == expected)
        #expect(source.count == 32 && alive.count == 28 && set.count == 52 && fseq.count == 28)
        #expect(cursors.alive == [7])
        #expect(cursors.frame == 1)
    }

    @Test func aMovingCursorHasAVelocityAndAnAccelerationAndALiftedOneLeavesAlive() {
        var cursors = TUIOCursors(source: "t")
        _ = cursors.bundles(for: [TUIOCursors.Update(touch: 1, phase: .began, x: 0.25, y: 0.5, time: 1)]).last
        _ = cursors.bundles(for: [TUIOCursors.Update(touch: 2, phase: .began, x: 0.75, y: 0.5, time: 1.25)]).last
        let moved = cursors.bundles(for: [TUIOCursors.Update(touch: 1, phase: .moved, x: 0.5, y: 0.5, time: 1.5)]).last
        // 0.25 of the window in 0.5 s: 0.5 per second along x, reached from rest in 0.5 s (1 per second²).
        let set = s("/tuio/2Dcur") + s(",sifffff") + s("set") + i(1) + f(0.5) + f(0.5) + f(0.5) + f(0) + f(1)
        let alive = s("/tuio/2Dcur") + s(",sii") + s("alive") + i(1) + i(2)
        #expect(moved.map { contains($0, set) } == true)
        #expect(moved.map { contains($0, alive) } == true)
        let lifted = cursors.bundles(for: [TUIOCursors.Update(touch: 1, phase: .ended, x: 0.5, y: 0.5, time: 1.6)]).last
        let aliveAfter = s("/tuio/2Dcur") + s(",si") + s("alive") + i(2)
        #expect(lifted.map { contains($0, aliveAfter) && !contains($0, s("set")) } == true)
        #expect(lifted.map { contains($0, s("/tuio/2Dcur") + s(",si") + s("fseq") + i(4)) } == true)
        #expect(cursors.alive == [2])
    }

    @Test func positionsStayInTheWindowAndNothingChangedSendsNothing() {
        var cursors = TUIOCursors(source: "t")
        #expect(cursors.bundles(for: []).isEmpty)
        let bundle = cursors.bundles(for: [TUIOCursors.Update(touch: 1, phase: .began, x: -3, y: .nan, time: 0)]).last
        #expect(bundle.map { contains($0, i(1) + f(0) + f(0)) } == true)
        #expect(cursors.bundles(for: [TUIOCursors.Update(touch: 9, phase: .moved, x: 0, y: 0, time: 0)]).last.map { !contains($0, s("set")) } == true)
        #expect(cursors.clear().map { contains($0, s("/tuio/2Dcur") + s(",s") + s("alive")) } == true, "clearing says no cursor is down")
        #expect(cursors.clear() == nil)
    }

    @Test func aFrameOfManyCursorsIsSplitIntoBundlesThatFitWithFseqInTheLast() {
        var cursors = TUIOCursors(source: "touchd")
        let landed = (1...200).map { TUIOCursors.Update(touch: TouchID($0), phase: .began, x: 0.5, y: 0.5, time: 1) }
        let first = cursors.bundles(for: landed)
        let moved = cursors.bundles(for: landed.map { TUIOCursors.Update(touch: $0.touch, phase: .moved, x: 0.25, y: 0.25, time: 1.001) })
        #expect(first.count > 1 && moved.count > 1)
        let alive = s("/tuio/2Dcur") + s(",s" + String(repeating: "i", count: 200)) + s("alive") + (1...200).flatMap { i(UInt32($0)) }
        for (frame, bundles) in [(1, first), (2, moved)] {
            #expect(bundles.allSatisfy { $0.count <= TUIOCursors.maximumBundle })
            #expect(bundles.allSatisfy { contains($0, s("source") + s("touchd")) && contains($0, alive) }, "each bundle has source and the whole alive")
            #expect(bundles.dropLast().allSatisfy { !contains($0, s("fseq")) })
            #expect(bundles.last.map { contains($0, s("fseq") + i(UInt32(frame))) } == true)
            let sets = (1...200).filter { n in bundles.contains { contains($0, s("set") + i(UInt32(n))) } }
            #expect(sets.count == 200, "every cursor is set once in the frame")
        }
    }

    func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return (0...(bytes.count - part.count)).contains { Array(bytes[$0..<($0 + part.count)]) == part }
    }
}
