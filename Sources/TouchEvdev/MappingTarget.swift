/// A rectangle in window points (origin top left, y down).
public struct WindowRect: Hashable, Sendable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Where a device's contacts go: a window, optionally a region of it, and the display's density.
public struct MappingTarget: Hashable, Sendable {
    /// The window's width in points.
    public var windowWidth: Double
    /// The window's height in points.
    public var windowHeight: Double
    /// The part of the window the device covers; nil for the whole window.
    public var region: WindowRect?
    /// Points per millimetre on the display (for contact sizes from the axis resolution).
    public var pointsPerMillimetre: Double

    /// A target window, optionally restricted to `region`.
    public init(windowWidth: Double, windowHeight: Double, region: WindowRect? = nil, pointsPerMillimetre: Double) {
        self.windowWidth = windowWidth
        self.windowHeight = windowHeight
        self.region = region
        self.pointsPerMillimetre = pointsPerMillimetre
    }

    /// ``region``, or the whole window.
    public var effectiveRegion: WindowRect {
        region ?? WindowRect(x: 0, y: 0, width: windowWidth, height: windowHeight)
    }
}

/// A quarter-turn rotation, clockwise, applied to normalised coordinates.
public enum Rotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0
    /// `(x, y) → (1 − y, x)`: libinput's `0 -1 1 1 0 0`.
    case clockwise90 = 90
    /// `(x, y) → (1 − x, 1 − y)`.
    case clockwise180 = 180
    /// `(x, y) → (y, 1 − x)`.
    case clockwise270 = 270

    func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        switch self {
        case .none: return (x, y)
        case .clockwise90: return (1 - y, x)
        case .clockwise180: return (1 - x, 1 - y)
        case .clockwise270: return (y, 1 - x)
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
    /// Keep locations inside the region (a contact beyond the axis range, or moved out by the
    /// calibration, lands on the region's edge). On by default.
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

    /// Applies the corrections to a normalised point.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        var point = calibration.apply(x: x, y: y)
        point = rotation.apply(x: point.x, y: point.y)
        if swapsAxes { point = (point.y, point.x) }
        if invertsX { point.x = 1 - point.x }
        if invertsY { point.y = 1 - point.y }
        if clampsToRegion {
            point = (min(max(point.x, 0), 1), min(max(point.y, 0), 1))
        }
        return point
    }
}
