import Testing
import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// Code of this test binary, by address: a C function made from a closure.
private let probe: @convention(c) (Int32) -> Int32 = { $0 &* 3 &+ 1 }

private struct Refused: Error, Equatable { let code: Int }

/// The heap the C library grows with brk (the main thread's), from /proc/self/maps.
private func brkHeap() throws -> ClosedRange<UInt>? {
    let maps = try FileReader.readText("/proc/self/maps", limit: 1 << 24)
    for line in maps.split(separator: "\n") where line.hasSuffix("[heap]") {
        let bounds = line.split(separator: " ")[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
        if bounds.count == 2, bounds[0] < bounds[1] { return bounds[0]...(bounds[1] - 1) }
    }
    return nil
}

@Suite struct MemoryReleaseTests {
    @Test func theScratchThreadRunsTheWorkOnAThreadOfItsOwnAndReturnsItsResult() {
        let caller = pthread_self()
        let (sum, sameThread) = MemoryRelease.onScratchThread { () -> (Int, Bool) in
            ((1...100).reduce(0, +), pthread_equal(pthread_self(), caller) != 0)
        }
        #expect(sum == 5_050)
        #expect(!sameThread)
    }

    @Test func theScratchThreadThrowsTheWorksErrorAsItsOwn() {
        #expect(throws: Refused(code: 7)) {
            try MemoryRelease.onScratchThread { () throws(Refused) -> Int in throw Refused(code: 7) }
        }
        // And runs again afterwards, as many times as asked.
        for n in 0..<5 { #expect(MemoryRelease.onScratchThread { n * 2 } == n * 2) }
    }

    @Test func theScratchThreadsAllocationsComeFromAHeapOfTheirOwn() throws {
        // glibc gives a new thread an arena of its own: the brk heap for the main thread, else a
        // heap mmapped on a 64 MiB boundary. The caller's block and the work's lie in different
        // ones (run on the caller's thread, the work would allocate from the caller's arena).
        let brk = try brkHeap()
        func heap(of address: UInt) -> UInt { brk?.contains(address) == true ? 0 : address >> 26 }
        guard let mine = malloc(1_024) else { Issue.record("malloc failed"); return }
        defer { free(mine) }
        let theirs = MemoryRelease.onScratchThread { () -> UInt in
            guard let block = malloc(1_024) else { return 0 }
            defer { free(block) }
            return UInt(bitPattern: block)
        }
        #expect(theirs != 0)
        #expect(heap(of: theirs) != heap(of: UInt(bitPattern: mine)), "\(theirs) and \(UInt(bitPattern: mine))")
    }

    @Test func theCodeSegmentsAreWholePagesAndHoldThisBinarysCode() {
        let segments = MemoryRelease.codeSegments()
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        #expect(!segments.isEmpty)
        for segment in segments {
            #expect(segment.start % page == 0 && segment.length > 0 && UInt(segment.length) % page == 0, "\(segment)")
        }
        let code = unsafeBitCast(probe, to: UInt.self)
        #expect(segments.filter { $0.contains(code) }.count == 1, "the probe's code at \(code)")
        // No two overlap.
        let sorted = segments.sorted { $0.start < $1.start }
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.start + UInt(a.length) <= b.start, "\(a) \(b)") }
    }

    @Test func codeGivenBackRunsAsBefore() throws {
        let before = (0..<1_000).map { probe(Int32($0)) }
        let report = try MemoryRelease.giveBack()
        let segments = MemoryRelease.codeSegments()
        #expect(report.codeSegments == segments.count)
        #expect(report.codeBytes == segments.reduce(0) { $0 + $1.length })
        // The unmapped code is mapped again as it runs: the same answers.
        #expect((0..<1_000).map { probe(Int32($0)) } == before)
    }
}
