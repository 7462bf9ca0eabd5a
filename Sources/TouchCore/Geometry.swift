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

/// An affine transform of the plane, `CGAffineTransform`'s matrix `[a b 0; c d 0; tx ty 1]`: it maps
/// `(x, y)` to `(a·x + c·y + tx, b·x + d·y + ty)`.
public struct AffineTransform: Hashable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public var isIdentity: Bool { self == .identity }

    /// `point` mapped through the transform (`CGPointApplyAffineTransform`).
    public func apply(_ point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// The determinant `a·d − b·c`: zero for a transform that flattens the plane.
    public var determinant: Double { a * d - b * c }

    /// The inverse transform (`CGAffineTransformInvert`), or `nil` when there is none (a zero or
    /// non-finite determinant, or a non-finite result). Never traps.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inverse = AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
        let parts = [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty]
        return parts.allSatisfy(\.isFinite) ? inverse : nil
    }

    /// `self` followed by `other` (`CGAffineTransformConcat(self, other)`): first `self`, then `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The smallest upright rectangle holding `rect` mapped through the transform
    /// (`CGRectApplyAffineTransform`); `rect` itself for the identity.
    public func boundingBox(of rect: Rect) -> Rect {
        if isIdentity { return rect }
        let corners = [
            apply(rect.origin), apply(Point(x: rect.maxX, y: rect.minY)),
            apply(Point(x: rect.minX, y: rect.maxY)), apply(Point(x: rect.maxX, y: rect.maxY)),
        ]
        var x0 = corners[0].x, x1 = corners[0].x, y0 = corners[0].y, y1 = corners[0].y
        for p in corners.dropFirst() {
            x0 = min(x0, p.x)
            x1 = max(x1, p.x)
            y0 = min(y0, p.y)
            y1 = max(y1, p.y)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// A view's `transform` as a layout or request writes it: a scale, then a rotation, then a
/// translation, all about the view's center (UIKit's default anchor point). The counterpart of
/// `CGAffineTransform(translationX:y:).rotated(by:).scaledBy(x:y:)`.
public struct ViewTransform: Hashable, Sendable, CustomStringConvertible {
    /// Points the view is moved by, in its superview's coordinates.
    public let translation: Point
    /// Degrees, clockwise on screen (y grows downwards, as in UIKit).
    public let rotation: Double
    /// Factors along the view's own x and y axes.
    public let scaleX: Double
    public let scaleY: Double
    /// The matrix: view coordinates relative to its center → superview coordinates relative to
    /// the view's center before the transform.
    public let matrix: AffineTransform
    /// The inverse of ``matrix``, `nil` when it has none.
    public let inverse: AffineTransform?
    /// Whether the transform leaves every point where it is.
    public let isIdentity: Bool

    public init(translation: Point = .zero, rotation: Double = 0, scaleX: Double = 1, scaleY: Double = 1) {
        self.translation = translation
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        let (sin, cos) = Self.sineCosine(degrees: rotation)
        matrix = AffineTransform(
            a: cos * scaleX, b: sin * scaleX, c: -sin * scaleY, d: cos * scaleY, tx: translation.x, ty: translation.y)
        inverse = matrix.inverted
        isIdentity = matrix.isIdentity
    }

    public static let identity = ViewTransform()

    /// Sine and cosine of an angle in degrees, exact at multiples of 90 degrees (so a quarter turn
    /// maps whole points to whole points). The standard library has no trigonometry: the angle is
    /// reduced to within 45 degrees of a quarter turn, where the Taylor series below are exact to
    /// a few units in the last place.
    static func sineCosine(degrees: Double) -> (sin: Double, cos: Double) {
        guard degrees.isFinite else { return (.nan, .nan) }
        var turns = degrees.truncatingRemainder(dividingBy: 360)
        if turns < 0 { turns += 360 }
        let quarters = (turns / 90).rounded()
        let x = (turns - quarters * 90) * Double.pi / 180
        let x2 = x * x
        var s = x, c = 1.0, termS = x, termC = 1.0
        for n in stride(from: 2.0, through: 18, by: 2) {
            termC *= -x2 / ((n - 1) * n)
            termS *= -x2 / (n * (n + 1))
            c += termC
            s += termS
        }
        // `+ 0` turns a negative zero into zero, so matrices print and compare plainly.
        switch quarters {
        case 1: return (c + 0, -s + 0)
        case 2: return (-s + 0, -c + 0)
        case 3: return (-c + 0, s + 0)
        default: return (s + 0, c + 0)
        }
    }

    public var description: String {
        "translate (\(formatNumber(translation.x)), \(formatNumber(translation.y))) rotate \(formatNumber(rotation))° "
            + "scale (\(formatNumber(scaleX)), \(formatNumber(scaleY)))"
    }
}
