import TouchCore

/// Where a device's contacts go: a window, optionally a region of it, and the display's density.
public struct MappingTarget: Hashable, Sendable {
    /// The window's size in points.
    public var windowSize: Size
    /// The part of the window the device covers, in window points; nil for the whole window.
    public var region: Rect?
    /// Points per millimetre on the display (for contact sizes from the axis resolution).
    public var pointsPerMillimetre: Double

    /// A target window, optionally restricted to `region`.
    public init(windowSize: Size, region: Rect? = nil, pointsPerMillimetre: Double) {
        self.windowSize = windowSize
        self.region = region
        self.pointsPerMillimetre = pointsPerMillimetre
    }

    /// ``region``, or the whole window.
    public var effectiveRegion: Rect {
        region ?? Rect(origin: .zero, size: windowSize)
    }
}

/// A quarter-turn rotation, clockwise, applied to normalised coordinates: the one rotation type
/// of touchd (a layout's `rotation`).
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    /// No rotation.
    case none = 0
    /// `(x, y) → (1 − y, x)`: libinput's `0 -1 1 1 0 0`.
    case clockwise90 = 90
    /// `(x, y) → (1 − x, 1 − y)`.
    case clockwise180 = 180
    /// `(x, y) → (y, 1 − x)`.
    case clockwise270 = 270

    /// The rotation in degrees, clockwise.
    public var degrees: Int { rawValue }

    /// The rotation of `degrees` clockwise; nil unless it is 0, 90, 180 or 270.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    /// Turns a normalised point.
    public func apply(to point: Point) -> Point {
        switch self {
        case .none: point
        case .clockwise90: Point(x: 1 - point.y, y: point.x)
        case .clockwise180: Point(x: 1 - point.x, y: 1 - point.y)
        case .clockwise270: Point(x: point.y, y: 1 - point.x)
        }
    }
}

/// How normalised device coordinates are corrected before they are scaled into the target, in this
/// order: calibration matrix, rotation, axis swap, inversion.
public struct MappingTransform: Hashable, Sendable {
    /// libinput-style calibration (``CalibrationMatrix/parse(udevProperty:)``, or converted from a
    /// tslib ``Pointercal``).
    public var calibration: CalibrationMatrix
    /// A quarter-turn rotation, after the calibration matrix.
    public var rotation: Rotation
    /// Exchange x and y.
    public var swapsAxes: Bool
    /// `x → 1 − x`.
    public var invertsX: Bool
    /// `y → 1 − y`.
    public var invertsY: Bool
    /// Keep locations inside the region, as a half-open area (a contact beyond the axis range, at
    /// its maximum, or moved out by the calibration, lands on the near edge or just inside the far
    /// one). On by default.
    public var clampsToRegion: Bool

    /// A transform; every correction defaults to none, clamping to on.
    public init(
        calibration: CalibrationMatrix = .identity, rotation: Rotation = .none, swapsAxes: Bool = false,
        invertsX: Bool = false, invertsY: Bool = false, clampsToRegion: Bool = true
    ) {
        self.calibration = calibration
        self.rotation = rotation
        self.swapsAxes = swapsAxes
        self.invertsX = invertsX
        self.invertsY = invertsY
        self.clampsToRegion = clampsToRegion
    }

    /// No correction, clamped to the region.
    public static let identity = MappingTransform()

    /// Applies the corrections to a normalised point. The result is finite whatever the input:
    /// a coordinate that is not (a calibration far outside its domain) becomes 0.5, the middle.
    public func apply(to normal: Point) -> Point {
        var point = rotation.apply(to: calibration.apply(to: normal))
        if swapsAxes { point = Point(x: point.y, y: point.x) }
        if invertsX { point.x = 1 - point.x }
        if invertsY { point.y = 1 - point.y }
        if !point.x.isFinite { point.x = 0.5 }
        if !point.y.isFinite { point.y = 0.5 }
        if clampsToRegion {
            point = Point(x: min(max(point.x, 0), 1), y: min(max(point.y, 0), 1))
        }
        return point
    }
}
