import TouchCore

/// Writes compact JSON text straight into bytes: the fast path for the messages touchd sends for
/// every frame. Produces exactly the text of ``JSONValue/write(to:)``.
///
/// Objects are written member by member: ``member(_:)`` writes the comma (when needed), the key
/// and the colon, and the value follows with one of the value methods.
///
/// The writer owns a growable buffer of its own (it cannot be copied, so no copy can share it):
/// writing a byte is a bounds check and a store, with no copy-on-write check per byte as an
/// `[UInt8]` would make. ``bytes`` and ``text`` copy out what was written.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    /// Whether the object or array being written has no member yet.
    @usableFromInline var first = true

    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 32)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The text written so far, UTF-8.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The text written so far.
    public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// How many bytes have been written.
    public var byteCount: Int { count }

    /// Calls `body` with the text written so far (valid only during the call).
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Forgets what was written, keeping the buffer's room for what is written next.
    public mutating func removeAll() {
        count = 0
        first = true
    }

    /// Gives the buffer, with the text written in it, for `room` (a buffer of the same kind the
    /// writer then owns, whose bytes it writes over), and starts empty.
    mutating func exchangeBuffer(for room: UnsafeMutableBufferPointer<UInt8>) -> UnsafeMutableBufferPointer<UInt8> {
        let written = UnsafeMutableBufferPointer(start: base, count: capacity)
        if let start = room.baseAddress, room.count >= 32 {
            base = start
            capacity = room.count
        } else {
            room.deallocate()
            capacity = max(capacity, 32)
            base = .allocate(capacity: capacity)
        }
        removeAll()
        return written
    }

    /// Starts the members of another object body after what was written (the next
    /// ``member(_:)`` writes no comma).
    public mutating func beginMembers() { first = true }

    // MARK: - Buffer

    /// Makes room for `n` more bytes.
    @inlinable @inline(__always)
    mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    @usableFromInline @inline(never)
    mutating func grow(_ n: Int) {
        let newCapacity = max(capacity * 2, count + n)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    mutating func put(_ b: UInt8) {
        reserve(1)
        base[count] = b
        count += 1
    }

    @inlinable @inline(__always)
    mutating func put(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        reserve(source.count)
        (base + count).update(from: start, count: source.count)
        count += source.count
    }

    @inlinable @inline(__always)
    mutating func put(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        (base + count).update(from: text.utf8Start, count: n)
        count += n
    }

    // MARK: - Structure

    /// Starts the next member of an object: `,"key":`. `key` is written as it is: it must need no
    /// escaping (the protocol's own keys); ``member(escaping:)`` escapes any key.
    @inlinable @inline(__always)
    public mutating func member(_ key: StaticString) {
        let n = key.utf8CodeUnitCount
        reserve(n + 4)
        // Through a local pointer: stores through `base` could otherwise alias the writer's own
        // fields and make every byte reload them.
        var p = base + count
        if !first {
            p.pointee = UInt8(ascii: ",")
            p += 1
        }
        first = false
        p[0] = UInt8(ascii: "\"")
        (p + 1).update(from: key.utf8Start, count: n)
        p[n + 1] = UInt8(ascii: "\"")
        p[n + 2] = UInt8(ascii: ":")
        count = p + n + 3 - base
    }

    /// Starts the next member of an object, escaping `key`.
    public mutating func member(escaping key: String) {
        if !first { put(UInt8(ascii: ",")) }
        first = false
        string(key)
        put(UInt8(ascii: ":"))
    }

    /// Writes members already written as JSON text (`"a":1,"b":2`), with the comma before them
    /// when the object has members already.
    public mutating func members(raw json: UnsafeBufferPointer<UInt8>) {
        guard !json.isEmpty else { return }
        if !first { put(UInt8(ascii: ",")) }
        first = false
        put(json)
    }

    /// Starts the next element of an array.
    @inlinable
    public mutating func element() {
        if !first { put(UInt8(ascii: ",")) }
        first = false
    }

    /// Writes an object whose members `body` writes.
    @inlinable
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        put(UInt8(ascii: "{"))
        first = true
        body(&self)
        put(UInt8(ascii: "}"))
        first = false
    }

    /// Writes an array whose elements `body` writes (each after ``element()``).
    @inlinable
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        put(UInt8(ascii: "["))
        first = true
        body(&self)
        put(UInt8(ascii: "]"))
        first = false
    }

    // MARK: - Values

    @inlinable
    public mutating func null() { put("null") }

    /// Writes `json` as it is: a value already in JSON form (`"\"touch\""`), for the protocol's
    /// constant values.
    @inlinable @inline(__always)
    public mutating func literal(_ json: StaticString) { put(json) }

    @inlinable
    public mutating func bool(_ value: Bool) { put(value ? "true" : "false") }

    public mutating func int(_ value: Int64) { unsigned(value.magnitude, negative: value < 0) }

    /// A number as ``JSONValue/jsonText`` writes it: whole values below 2^53 without a fraction,
    /// values from 2^53 on in shortest round-trip form, others with up to 6 decimals, non-finite
    /// ones as `null`. Every finite value is written as a valid JSON number.
    public mutating func double(_ value: Double) {
        reserve(Self.numberRoom)
        if let end = Self.fastNumber(value, at: base + count) {
            count = end - base
        } else if value.isFinite && value == value.rounded() && abs(value) < JSONValue.wholeNumbersFrom {
            int(Int64(value))
        } else {
            var text = JSONValue.format(value)
            text.withUTF8 { put($0) }
        }
    }

    /// The room ``double(_:)`` makes before writing: a number written from integers takes at most
    /// 18 bytes (a sign, 10 digits, a point and 6 more), and a kept text is stored as 16.
    private static let numberRoom = 24

    /// Writes `value` at `start` and returns the position after it, when it is written from
    /// integers: below 2^32 (touchd's coordinates, radii, forces and timestamps), the number
    /// itself when it rounds to a whole one, else its millionths rounded half away from zero as
    /// `rounded()` does, computed exactly (every value here is far below 2^52). Nil for others
    /// (from 2^32 on, not finite, or below a thousandth and not zero).
    @inline(__always)
    private static func fastNumber(_ value: Double, at start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>? {
        guard abs(value) < 4_294_967_296 else { return nil }
        // Exact: |scaled| < 2^52, and an integral value's millionths are whole.
        let scaled = value * 1_000_000
        var micros = Int64(scaled)
        let rest = scaled - Double(micros)
        if rest >= 0.5 {
            micros &+= 1
        } else if rest <= -0.5 {
            micros &-= 1
        }
        let (whole, fraction) = micros.magnitude.quotientAndRemainder(dividingBy: 1_000_000)
        // Below a thousandth, Swift's shortest text has an exponent: the format's own.
        guard fraction == 0 || micros.magnitude >= 1_000 else { return nil }
        var p = start
        if micros < 0 {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        p = digits(whole, at: p)
        // One form: a value that rounds to a whole number is written as one (`1080`, never `1080.0`).
        if fraction == 0 { return p }
        return Self.fraction(fraction, at: p)
    }

    /// A number's text kept for ``double(_:reusing:)``: a list of samples repeats most of its
    /// forces and radii, and their text is copied rather than formatted again.
    struct WrittenNumber {
        var bits: UInt64 = 0
        /// The text's bytes (zeros after them).
        var text: (UInt64, UInt64) = (0, 0)
        /// 0 when there is none (nothing written yet, or a text longer than 16 bytes).
        var length = 0

        /// No number yet.
        init() {}

        /// Keeps `written` as the text of `value` (none when it is longer than 16 bytes).
        mutating func keep(_ value: Double, written: UnsafeRawBufferPointer) {
            bits = value.bitPattern
            text = (0, 0)
            length = written.count <= 16 ? written.count : 0
            guard length > 0 else { return }
            withUnsafeMutableBytes(of: &text) { $0.copyMemory(from: written) }
        }
    }

    /// Writes `value` as ``double(_:)`` does: the text `last` keeps when `value` is its number
    /// (bit for bit), else formatted and kept in `last`.
    mutating func double(_ value: Double, reusing last: inout WrittenNumber) {
        reserve(Self.numberRoom)
        if let end = Self.number(value, reusing: &last, at: base + count) {
            count = end - base
            return
        }
        let start = count
        double(value)
        last.keep(value, written: UnsafeRawBufferPointer(start: base + start, count: count - start))
    }

    /// Writes `value` at `p` from `kept` when it is kept's number, else written from integers
    /// (``fastNumber(_:at:)``) and kept; returns the position after it, or nil (nothing kept) when
    /// it is not written from integers. Writes 16 bytes from `p` at least.
    @inline(__always)
    private static func number(_ value: Double, reusing kept: inout WrittenNumber, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>? {
        if kept.length > 0 && kept.bits == value.bitPattern {
            UnsafeMutableRawPointer(p).storeBytes(of: kept.text, as: (UInt64, UInt64).self)
            return p + kept.length
        }
        guard let end = fastNumber(value, at: p) else { return nil }
        kept.keep(value, written: UnsafeRawBufferPointer(start: p, count: end - p))
        return end
    }

    /// Writes one merged sample of a touch, `[time,x,y,force,radius]`, as an array of five
    /// ``double(_:)``s is written, the force and the radius as ``double(_:reusing:)`` writes them:
    /// a `touch` message's `coalesced` list, a number of these for each display frame, written with
    /// one reservation for all five.
    mutating func sample(
        time: Double, x: Double, y: Double, force: Double, radius: Double, kept: inout (force: WrittenNumber, radius: WrittenNumber)
    ) {
        reserve(2 + 5 * (Self.numberRoom + 1))
        let p = base + count
        p.pointee = UInt8(ascii: "[")
        guard let t = Self.fastNumber(time, at: p + 1) else { return sampleByNumbers(time, x, y, force, radius, kept: &kept) }
        t.pointee = UInt8(ascii: ",")
        guard let xEnd = Self.fastNumber(x, at: t + 1) else { return sampleByNumbers(time, x, y, force, radius, kept: &kept) }
        xEnd.pointee = UInt8(ascii: ",")
        guard let yEnd = Self.fastNumber(y, at: xEnd + 1) else { return sampleByNumbers(time, x, y, force, radius, kept: &kept) }
        yEnd.pointee = UInt8(ascii: ",")
        guard let forceEnd = Self.number(force, reusing: &kept.force, at: yEnd + 1) else {
            return sampleByNumbers(time, x, y, force, radius, kept: &kept)
        }
        forceEnd.pointee = UInt8(ascii: ",")
        guard let end = Self.number(radius, reusing: &kept.radius, at: forceEnd + 1) else {
            return sampleByNumbers(time, x, y, force, radius, kept: &kept)
        }
        end.pointee = UInt8(ascii: "]")
        count = end + 1 - base
    }

    /// Writes a point, `{"x":..,"y":..}`, its two numbers as ``double(_:)`` writes them, with one
    /// reservation: a touch message has four, a hit two. (Not ``point(x:y:reusing:)`` with nothing
    /// kept: keeping each number's text would cost every point written, 0.6% of a 60 Hz frame.)
    mutating func point(x: Double, y: Double) {
        let open: StaticString = #"{"x":"#
        let middle: StaticString = #","y":"#
        reserve(open.utf8CodeUnitCount + middle.utf8CodeUnitCount + 1 + 2 * Self.numberRoom)
        let p = base + count
        p.update(from: open.utf8Start, count: open.utf8CodeUnitCount)
        guard let xEnd = Self.fastNumber(x, at: p + open.utf8CodeUnitCount) else { return pointByNumbers(x, y) }
        xEnd.update(from: middle.utf8Start, count: middle.utf8CodeUnitCount)
        guard let yEnd = Self.fastNumber(y, at: xEnd + middle.utf8CodeUnitCount) else { return pointByNumbers(x, y) }
        yEnd.pointee = UInt8(ascii: "}")
        count = yEnd + 1 - base
    }

    /// ``point(x:y:)`` number by number, for a point with a number not written from integers.
    private mutating func pointByNumbers(_ x: Double, _ y: Double) {
        literal(#"{"x":"#)
        double(x)
        literal(#","y":"#)
        double(y)
        literal("}")
    }

    /// Writes a point as ``point(x:y:)`` does, each number as ``double(_:reusing:)`` writes it
    /// with its own of `kept`: a touch's place before is most often the last one written of it.
    mutating func point(x: Double, y: Double, reusing kept: inout (x: WrittenNumber, y: WrittenNumber)) {
        let open: StaticString = #"{"x":"#
        let middle: StaticString = #","y":"#
        reserve(open.utf8CodeUnitCount + middle.utf8CodeUnitCount + 1 + 2 * Self.numberRoom)
        let p = base + count
        p.update(from: open.utf8Start, count: open.utf8CodeUnitCount)
        guard let xEnd = Self.number(x, reusing: &kept.x, at: p + open.utf8CodeUnitCount) else { return pointByNumbers(x, y, reusing: &kept) }
        xEnd.update(from: middle.utf8Start, count: middle.utf8CodeUnitCount)
        guard let yEnd = Self.number(y, reusing: &kept.y, at: xEnd + middle.utf8CodeUnitCount) else {
            return pointByNumbers(x, y, reusing: &kept)
        }
        yEnd.pointee = UInt8(ascii: "}")
        count = yEnd + 1 - base
    }

    /// ``point(x:y:reusing:)`` number by number, for a point with a number not written from integers.
    private mutating func pointByNumbers(_ x: Double, _ y: Double, reusing kept: inout (x: WrittenNumber, y: WrittenNumber)) {
        literal(#"{"x":"#)
        double(x, reusing: &kept.x)
        literal(#","y":"#)
        double(y, reusing: &kept.y)
        literal("}")
    }

    /// ``sample(time:x:y:force:radius:kept:)`` number by number, for a sample with a number not
    /// written from integers (none that touchd makes).
    private mutating func sampleByNumbers(
        _ time: Double, _ x: Double, _ y: Double, _ force: Double, _ radius: Double, kept: inout (force: WrittenNumber, radius: WrittenNumber)
    ) {
        put(UInt8(ascii: "["))
        double(time)
        put(UInt8(ascii: ","))
        double(x)
        put(UInt8(ascii: ","))
        double(y)
        put(UInt8(ascii: ","))
        double(force, reusing: &kept.force)
        put(UInt8(ascii: ","))
        double(radius, reusing: &kept.radius)
        put(UInt8(ascii: "]"))
    }

    /// Writes `whole`, with a minus sign when `negative`.
    private mutating func unsigned(_ whole: UInt64, negative: Bool) {
        reserve(21)
        var p = base + count
        if negative {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        count = Self.digits(whole, at: p) - base
    }

    /// Writes `.` and `fraction` (millionths, 1 ... 999,999) with no trailing zeros at `p`;
    /// returns the position after them.
    ///
    /// After the whole part of a magnitude in 0.001 ..< 2^32 this is exactly Swift's shortest
    /// round-trip text of the double nearest to the value (which ``JSONValue``'s format prints):
    /// doubles there are closer together than 1e-6, so no other decimal of at most 6 places reads
    /// back as that double, and Swift uses no exponent in that range. It saves formatting through
    /// a string.
    @inline(__always)
    private static func fraction(_ fraction: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        p.pointee = UInt8(ascii: ".")
        let f = Int(truncatingIfNeeded: fraction)
        let high = f / 10_000
        let middle = f / 100 % 100
        let low = f % 100
        pair(high, at: p + 1)
        pair(middle, at: p + 3)
        pair(low, at: p + 5)
        // The last digit that is not a zero (the fraction has one).
        let length: Int
        if low != 0 {
            length = low % 10 != 0 ? 6 : 5
        } else if middle != 0 {
            length = middle % 10 != 0 ? 4 : 3
        } else {
            length = high % 10 != 0 ? 2 : 1
        }
        return p + 1 + length
    }

    /// Writes the two digits of `n` (0...99) at `p`.
    @inline(__always)
    private static func pair(_ n: Int, at p: UnsafeMutablePointer<UInt8>) {
        let pairs: StaticString =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        p[0] = pairs.utf8Start[2 &* n]
        p[1] = pairs.utf8Start[2 &* n &+ 1]
    }

    /// Writes a number's decimal digits at `p` (room for 20 must have been made); returns the
    /// position after them.
    @inline(__always)
    private static func digits(_ value: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        // Most numbers here (coordinates, radii, times) have at most four digits before the point.
        if value < 10_000 {
            let n = Int(truncatingIfNeeded: value)
            if n < 100 {
                if n < 10 {
                    p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
                    return p + 1
                }
                pair(n, at: p)
                return p + 2
            }
            let high = n / 100
            if high < 10 {
                p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
                pair(n - high * 100, at: p + 1)
                return p + 3
            }
            pair(high, at: p)
            pair(n - high * 100, at: p + 2)
            return p + 4
        }
        var length = 1
        var rest = value
        while rest >= 100 {
            rest /= 100
            length += 2
        }
        if rest >= 10 { length += 1 }
        // Two digits at a time, from the last.
        var n = value
        var q = p + length
        while n >= 100 {
            q -= 2
            pair(Int(truncatingIfNeeded: n % 100), at: q)
            n /= 100
        }
        if n >= 10 {
            pair(Int(truncatingIfNeeded: n), at: q - 2)
        } else {
            q[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
        }
        return p + length
    }

    /// A string, quoted and escaped: `"`, `\`, and control characters; everything else as it is.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { quoted($0) }
    }

    /// Writes `utf8` quoted. The text is checked eight bytes at a time for a byte that needs
    /// escaping; the part before the first one (usually all of it) is copied at once, the rest byte
    /// by byte with escapes.
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        reserve(n + 2)
        let p = base + count
        p.pointee = UInt8(ascii: "\"")
        var clean = 0
        if let source = utf8.baseAddress {
            let raw = UnsafeRawPointer(source)
            while clean + 8 <= n && !Self.needsEscape(raw.loadUnaligned(fromByteOffset: clean, as: UInt64.self)) {
                clean += 8
            }
            while clean < n && !Self.needsEscape(source[clean]) { clean += 1 }
            (p + 1).update(from: source, count: clean)
        }
        count += 1 + clean
        for i in clean..<n {
            let b = utf8[i]
            if Self.needsEscape(b) {
                escape(b)
            } else {
                put(b)
            }
        }
        put(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ b: UInt8) -> Bool { b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 }

    /// Whether any of the eight bytes of `word` is a quote, a backslash or a control character
    /// (the classic test for a zero byte, applied to `word` less 0x20 and to `word` xor the two
    /// characters; bytes of 0x80 and above never match).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highs != 0
        return control || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\"")))) || hasZero(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
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
        switch b {
        case UInt8(ascii: "\""): put("\\\"")
        case UInt8(ascii: "\\"): put("\\\\")
        case 0x0A: put("\\n")
        case 0x0D: put("\\r")
        case 0x09: put("\\t")
        default:
            let hex: StaticString = "0123456789abcdef"
            put("\\u00")
            put(hex.utf8Start[Int(b >> 4)])
            put(hex.utf8Start[Int(b & 15)])
        }
    }
}
