/// A physical length on a display, in millimetres: how far a finger may move and still tap, how
/// far a pan or a swipe must travel, how far a calibrated touch lands from its target, how small a
/// touch target may be.
///
/// Lengths in points belong to a window; a physical length does not, and becomes points only
/// through a window's density (``WindowProperties/pointsPerMillimetre``, a ratio and so a plain
/// `Double`): ``points(at:)`` and ``init(points:pointsPerMillimetre:)``. Its domain is any
/// `Double`: a layout's values are checked against their documented domains when read
/// (``NumberDomain``), and arithmetic is the `Double`'s, so it never traps.
public struct Millimetres: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral
{
    /// The length in millimetres.
    public var value: Double

    /// A length of `value` millimetres.
    public init(_ value: Double) { self.value = value }

    /// The physical length of `points` on a display of `pointsPerMillimetre` (`points` divided by
    /// it: infinite or NaN for a density of zero, which no layout gives).
    public init(points: Double, pointsPerMillimetre: Double) { value = points / pointsPerMillimetre }

    public init(floatLiteral value: Double) { self.value = value }
    public init(integerLiteral value: Int) { self.value = Double(value) }

    /// No length at all.
    public static let zero = Millimetres(0)

    /// The length in points on a display of `pointsPerMillimetre` (a window's density).
    public func points(at pointsPerMillimetre: Double) -> Double { value * pointsPerMillimetre }

    // Every comparison is the `Double`'s, so a NaN length compares as NaN does (false), not as
    // `Comparable`'s defaults would (`<=` as "not greater").
    public static func < (a: Millimetres, b: Millimetres) -> Bool { a.value < b.value }
    public static func <= (a: Millimetres, b: Millimetres) -> Bool { a.value <= b.value }
    public static func > (a: Millimetres, b: Millimetres) -> Bool { a.value > b.value }
    public static func >= (a: Millimetres, b: Millimetres) -> Bool { a.value >= b.value }
    public static func + (a: Millimetres, b: Millimetres) -> Millimetres { Millimetres(a.value + b.value) }
    public static func - (a: Millimetres, b: Millimetres) -> Millimetres { Millimetres(a.value - b.value) }
    /// The length `factor` times as long.
    public static func * (length: Millimetres, factor: Double) -> Millimetres { Millimetres(length.value * factor) }
    /// The length `divisor` times shorter (a mean of lengths).
    public static func / (length: Millimetres, divisor: Double) -> Millimetres { Millimetres(length.value / divisor) }

    public var description: String { "\(value) mm" }
}
