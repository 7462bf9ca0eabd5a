import TouchCore

// Numbers as pictures write them: the same text as TouchCore's `formatNumber` (integers without a
// fraction, others with up to three decimals), written straight into bytes rather than through
// `Double.description` and string concatenation: a picture of 10,000 views writes some 250,000.

/// Writes `value` as `formatNumber` does, right-aligned at the end of `buffer` (at least 32 bytes);
/// returns where the text starts, or `nil` for a value this does not handle (not finite, or of a
/// magnitude of 1e12 or more), which `formatNumber` writes instead.
private func writeNumber(_ value: Double, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
    // Below 1e12 a thousandth is far wider than a Double's spacing, so the shortest text of
    // `(value * 1000).rounded() / 1000` (what formatNumber writes for a fraction) is its three
    // decimals without their trailing zeros; when they are all zeros, formatNumber writes the
    // whole number alone (one form: `12`, never `12.0`).
    guard value.isFinite, abs(value) < 1e12, buffer.count >= 32 else { return nil }
    let thousandths = (value * 1000).rounded()
    guard let k = Int64(exactly: thousandths) else { return nil }
    let integral = k % 1000 == 0
    var end = buffer.count
    func put(_ byte: UInt8) {
        end -= 1
        buffer[end] = byte
    }
    func digit(_ n: UInt64) -> UInt8 { UInt8(ascii: "0") + UInt8(truncatingIfNeeded: n) }
    var whole = k.magnitude / 1000
    if !integral {
        var fraction = k.magnitude % 1000
        var digits = 3
        while fraction > 0 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        if fraction == 0 { digits = 1 }
        for _ in 0..<digits {
            put(digit(fraction % 10))
            fraction /= 10
        }
        put(UInt8(ascii: "."))
    }
    repeat {
        put(digit(whole % 10))
        whole /= 10
    } while whole > 0
    // A negative value that rounds to zero is written "0", as formatNumber writes it.
    if k < 0 { put(UInt8(ascii: "-")) }
    return end
}

/// A number as SVG writes it: compact, at most three decimals (see `formatNumber`).
func svgNumber(_ value: Double) -> String {
    let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
        writeNumber(value, into: buffer).map { String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[$0...]), as: UTF8.self) }
    }
    return text ?? formatNumber(value)
}

/// Text built as UTF-8 bytes (words and numbers) and made a string once.
struct SVGText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) { bytes.appendUTF8(text) }

    mutating func append(_ value: Double) { bytes.appendNumber(value) }
}

extension Array where Element == UInt8 {
    /// Appends bytes.
    mutating func appendBytes(_ buffer: UnsafeBufferPointer<UInt8>) { append(contentsOf: buffer) }

    /// Appends the UTF-8 of `text`, copied whole.
    mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    /// Appends a number as ``svgNumber(_:)`` writes it.
    mutating func appendNumber(_ value: Double) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            writeNumber(value, into: buffer).map { appendBytes(UnsafeBufferPointer(rebasing: buffer[$0...])) } != nil
        }
        if !written { appendUTF8(formatNumber(value)) }
    }

    /// Appends `x y width height`.
    mutating func appendNumbers(of r: Rect) {
        appendNumber(r.minX)
        append(UInt8(ascii: " "))
        appendNumber(r.minY)
        append(UInt8(ascii: " "))
        appendNumber(r.width)
        append(UInt8(ascii: " "))
        appendNumber(r.height)
    }

    /// Appends a rectangle as `Rect.description` writes it: `(x y; width height)`.
    mutating func appendDescription(of r: Rect) {
        append(UInt8(ascii: "("))
        appendNumber(r.minX)
        append(UInt8(ascii: " "))
        appendNumber(r.minY)
        append(UInt8(ascii: ";"))
        append(UInt8(ascii: " "))
        appendNumber(r.width)
        append(UInt8(ascii: " "))
        appendNumber(r.height)
        append(UInt8(ascii: ")"))
    }
}
