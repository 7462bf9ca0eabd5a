/// A point in some view's coordinate space, in points. The counterpart of `CGPoint`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// The straight-line distance to `other`.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    public static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    public static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }

    public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// A width and a height, in points. The counterpart of `CGSize`.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)
}

/// Distances added to each edge of a rectangle, in points. The counterpart of `UIEdgeInsets`,
/// used as an outset: positive values enlarge a view's hit area.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same distance on every side.
    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    public static let zero = EdgeInsets(all: 0)
}

/// A rectangle: an origin and a size. The counterpart of `CGRect`.
///
/// Containment follows `CGRectContainsPoint`: the minimum edges are inside, the maximum edges are not.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(origin: .zero, size: .zero)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    /// Whether `point` lies inside: `minX <= x < maxX` and `minY <= y < maxY`.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The rectangle grown by `insets` on each side.
    public func outset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: origin.x - insets.left, y: origin.y - insets.top,
            width: size.width + insets.left + insets.right,
            height: size.height + insets.top + insets.bottom)
    }

    /// The overlap of two rectangles, or `nil` when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public var description: String {
        "(\(formatNumber(origin.x)) \(formatNumber(origin.y)); \(formatNumber(size.width)) \(formatNumber(size.height)))"
    }
}

/// Formats a number compactly: integers without a fraction, others with up to 3 decimals.
public func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
    let scaled = (value * 1000).rounded() / 1000
    // One form: a value that rounds to a whole number is written as one (`1080`, never `1080.0`).
    if scaled == scaled.rounded() && abs(scaled) < 1e15 { return String(Int64(scaled)) }
    return String(scaled)
}
