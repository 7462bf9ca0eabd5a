/// Writes compact JSON text straight into bytes: the fast path for the messages touchd sends for
/// every frame. Produces exactly the text of ``JSONValue/write(to:)``.
///
/// Objects are written member by member: ``member(_:)`` writes the comma (when needed), the key
/// and the colon, and the value follows with one of the value methods.
public struct JSONWriter: Sendable {
    /// The text written so far, UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Whether the object or array being written has no member yet.
    private var first = true

    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Starts the next member of an object: `,"key":`. `key` is written as it is: it must need no
    /// escaping (the protocol's own keys); ``member(escaping:)`` escapes any key.
    public mutating func member(_ key: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts the next member of an object, escaping `key`.
    public mutating func member(escaping key: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts the next element of an array.
    public mutating func element() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    /// Writes an object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        first = true
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// Writes an array whose elements `body` writes (each after ``element()``).
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "["))
        first = true
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    public mutating func null() { raw("null") }

    public mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    private mutating func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }

    public mutating func int(_ value: Int64) {
        var text = String(value)
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A number as ``JSONValue`` writes it: integral values without a fraction, others with up to
    /// 6 decimals, non-finite ones as `null`.
    public mutating func double(_ value: Double) {
        if value.isFinite && !(value == value.rounded() && abs(value) < 1e15) {
            let scaled = (value * 1_000_000).rounded()
            let magnitude = abs(scaled / 1_000_000)
            if magnitude >= 0.001 && magnitude < 4_294_967_296 {
                fixedMicros(Int64(scaled))
                return
            }
        }
        var text = JSONValue.format(value)
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Writes `micros / 1e6` with at most 6 decimals and no trailing zeros (but at least one).
    ///
    /// For a magnitude in 0.001 ..< 2^32 this is exactly Swift's shortest round-trip text of the
    /// double nearest to `micros / 1e6` (which ``JSONValue``'s format prints): doubles there are
    /// closer together than 1e-6, so no other decimal of at most 6 places reads back as that
    /// double, and Swift uses no exponent in that range. It saves formatting through a string.
    private mutating func fixedMicros(_ micros: Int64) {
        var k = micros
        if k < 0 {
            bytes.append(UInt8(ascii: "-"))
            k = -k
        }
        digits(UInt64(k / 1_000_000))
        bytes.append(UInt8(ascii: "."))
        var fraction = k % 1_000_000
        var places = 6
        while places > 1 && fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        var divisor: Int64 = 1
        for _ in 1..<places { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    private mutating func digits(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// A string, quoted and escaped: `"`, `\`, and control characters; everything else as it is.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                escape(b)
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Any JSON value.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let v): bool(v)
        case .int(let v): int(v)
        case .double(let v): double(v)
        case .string(let v): string(v)
        case .array(let items):
            array { w in
                for item in items {
                    w.element()
                    w.value(item)
                }
            }
        case .object(let members):
            object { w in
                for (key, item) in members {
                    w.member(escaping: key)
                    w.value(item)
                }
            }
        }
    }

    private mutating func escape(_ b: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 15)]])
        }
    }
}
