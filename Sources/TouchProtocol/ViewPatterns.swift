import TouchCore

/// Subscriptions' `views` patterns, compiled once so that matching a view costs no allocation and
/// does not grow with the number of patterns: exact ids in a hashed table, prefixes (patterns
/// ending in `*`) in a sorted array searched by bisection.
///
/// Each pattern carries a mask of the subscriptions (bit `k`: the `k`th of at most 64) it belongs
/// to; ``mask(of:)`` gives the union of the masks of every pattern a view matches. An exact pattern
/// matches the id it equals (as ``ResponderID`` compares); a prefix matches every id whose UTF-8
/// bytes begin with the prefix's bytes.
///
/// A view is matched in O(log P × L) for P prefixes of at most L bytes plus one hashed look-up,
/// whatever the number of patterns and subscriptions.
public struct ViewPatterns: Hashable, Sendable {
    /// The exact patterns, with the subscriptions that list them.
    private var exact: [ResponderID: UInt64] = [:]
    /// The prefixes, sorted by their bytes, each once.
    private var prefixes: [[UInt8]] = []
    /// For each prefix, the subscriptions of it and of every shorter prefix of it.
    private var masks: [UInt64] = []
    /// For each prefix, the index of the longest other prefix that begins it, or -1.
    private var parents: [Int] = []

    /// No patterns: matches nothing.
    public init() {}

    /// One subscription's patterns (bit 0).
    public init(_ patterns: [String]) { self.init(masked: [(patterns, 1)]) }

    /// The patterns of several subscriptions, each with its mask.
    public init(masked lists: [(patterns: [String], mask: UInt64)]) {
        var listed: [(bytes: [UInt8], mask: UInt64)] = []
        for (patterns, mask) in lists {
            for pattern in patterns {
                if pattern.hasSuffix("*") {
                    listed.append((Array(String(pattern.dropLast()).utf8), mask))
                } else {
                    exact[ResponderID(pattern), default: 0] |= mask
                }
            }
        }
        listed.sort { a, b in a.bytes.withUnsafeBufferPointer { x in b.bytes.withUnsafeBufferPointer { Self.compare(x, $0) < 0 } } }
        // In sorted order every prefix of a pattern comes before it, and the prefixes of the
        // pattern before it that also begin it are the stack's. Equal prefixes are merged.
        var stack: [Int] = []
        for (bytes, mask) in listed {
            if let last = prefixes.last, last.count == bytes.count, Self.begins(last, bytes) {
                masks[masks.count - 1] |= mask
                continue
            }
            while let top = stack.last, !Self.begins(prefixes[top], bytes) { stack.removeLast() }
            let parent = stack.last ?? -1
            parents.append(parent)
            masks.append(mask | (parent >= 0 ? masks[parent] : 0))
            prefixes.append(bytes)
            stack.append(prefixes.count - 1)
        }
    }

    /// Whether there are no patterns.
    public var isEmpty: Bool { exact.isEmpty && prefixes.isEmpty }

    /// The subscriptions (as a mask) with a pattern that `view` matches.
    public func mask(of view: ResponderID) -> UInt64 {
        let exactMask = exact.isEmpty ? 0 : exact[view] ?? 0
        guard !prefixes.isEmpty else { return exactMask }
        let utf8 = view.rawValue.utf8
        return exactMask | (utf8.withContiguousStorageIfAvailable { prefixMask(of: $0) } ?? Array(utf8).withUnsafeBufferPointer { prefixMask(of: $0) })
    }

    /// Whether `view` matches one of the patterns.
    public func matches(_ view: ResponderID) -> Bool { mask(of: view) != 0 }

    /// The masks of the prefixes that begin `bytes`. The last prefix not after `bytes` is the only
    /// candidate of its length or longer: any prefix that begins `bytes` lies between them, so it
    /// also begins that one, and the ones that begin both are on its chain of parents.
    private func prefixMask(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var low = 0
        var high = prefixes.count
        while low < high {
            let mid = low + (high - low) / 2
            if prefixes[mid].withUnsafeBufferPointer({ Self.compare($0, bytes) }) <= 0 { low = mid + 1 } else { high = mid }
        }
        var i = low - 1
        guard i >= 0 else { return 0 }
        let common = prefixes[i].withUnsafeBufferPointer { Self.commonPrefixLength($0, bytes) }
        while i >= 0, prefixes[i].count > common { i = parents[i] }
        return i >= 0 ? masks[i] : 0
    }

    /// Whether `prefix` begins `bytes`.
    private static func begins(_ prefix: [UInt8], _ bytes: [UInt8]) -> Bool {
        prefix.count <= bytes.count
            && prefix.withUnsafeBufferPointer { p in bytes.withUnsafeBufferPointer { commonPrefixLength(p, $0) == p.count } }
    }

    /// -1, 0 or 1 as `a` comes before, equals or comes after `b`, byte by byte. (Written out on
    /// buffers, not generic collections: patterns are compiled in every build, debug ones too.)
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = commonPrefixLength(a, b)
        if n < a.count && n < b.count { return a[n] < b[n] ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    private static func commonPrefixLength(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let end = min(a.count, b.count)
        var n = 0
        while n < end, a[n] == b[n] { n += 1 }
        return n
    }
}
