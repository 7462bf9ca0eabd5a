import TouchCore

/// An sRGB colour, written `#rrggbb`.
public struct RGBColour: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// From hue (degrees), saturation and lightness (0...1). Values out of range give some colour
    /// (each channel clamped to 0...255), never a trap.
    public init(hue: Double, saturation: Double, lightness: Double) {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let c = (1 - abs(2 * lightness - 1)) * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch Int(rounding: h, .towardZero, clampedTo: 0...5) {
            case 0: (c, x, 0)
            case 1: (x, c, 0)
            case 2: (0, c, x)
            case 3: (0, x, c)
            case 4: (x, 0, c)
            default: (c, 0, x)
            }
        let m = lightness - c / 2
        func byte(_ v: Double) -> UInt8 { UInt8(clamping: Int(rounding: (v + m) * 255, .toNearestOrAwayFromZero, clampedTo: 0...255)) }
        self.init(red: byte(r), green: byte(g), blue: byte(b))
    }

    /// `#rrggbb`, lower case.
    public var description: String {
        func hex(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10 }
        let bytes = [
            UInt8(ascii: "#"), hex(red >> 4), hex(red & 15), hex(green >> 4), hex(green & 15), hex(blue >> 4), hex(blue & 15),
        ]
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Stable colours per view: the same id gets the same colour in every picture and every run (the
/// hue comes from a fixed hash of the id, never from Swift's per-process seeded `Hasher`).
public enum ViewColours {
    /// The colour of touches that no view received.
    public static let noView = RGBColour(red: 0x55, green: 0x55, blue: 0x55)
    /// The colour of views that cannot take touches (hidden, transparent, not interactive).
    public static let inactive = RGBColour(red: 0x9a, green: 0x9a, blue: 0x9a)

    /// The colour of `view`: a hue from the id's FNV-1a hash, at a saturation and lightness that read
    /// well on white.
    public static func colour(of view: ResponderID) -> RGBColour {
        let hash = mix(fnv1a(view.rawValue))
        // The hue from the low bits, the lightness from the high ones: close hues of two views still
        // differ in lightness two times out of three.
        let hue = Double(hash % 3600) / 10
        let lightness = 0.33 + Double((hash >> 40) % 3) * 0.08
        return RGBColour(hue: hue, saturation: 0.7, lightness: lightness)
    }

    /// The colour of a touch received by `view` (``noView`` when none did).
    public static func colour(ofTouchOn view: ResponderID?) -> RGBColour {
        view.map { colour(of: $0) } ?? noView
    }

    /// SplitMix64's finalizer: FNV-1a's low bits depend mostly on the last bytes, so ids that end
    /// alike ("tile.doors", "grid.doors") would get close hues without it.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// 64-bit FNV-1a over the UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
