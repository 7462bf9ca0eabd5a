import TouchCore

/// The ranges a device's contacts are measured against.
public struct MappingAxes: Hashable, Sendable {
    /// The x position axis (multi-touch when the device has it).
    public var x: AbsInfo
    /// The y position axis.
    public var y: AbsInfo
    /// The contact-size axis (``DeviceContact/touchMajor``), if any.
    public var touchMajor: AbsInfo?
    /// The pressure axis (``DeviceContact/pressure``), if any.
    public var pressure: AbsInfo?

    /// Axes given one by one.
    public init(x: AbsInfo, y: AbsInfo, touchMajor: AbsInfo? = nil, pressure: AbsInfo? = nil) {
        self.x = x
        self.y = y
        self.touchMajor = touchMajor
        self.pressure = pressure
    }

    /// The axes ``DeviceCapabilities`` chose; a device without position axes gets 0…1 (its contacts
    /// all land in the middle).
    public init(capabilities: DeviceCapabilities) {
        self.init(
            x: capabilities.xAxis ?? AbsInfo(minimum: 0, maximum: 0),
            y: capabilities.yAxis ?? AbsInfo(minimum: 0, maximum: 0),
            touchMajor: capabilities.touchMajorAxis, pressure: capabilities.pressureAxis)
    }
}

/// Converts device contacts into window points for one target.
///
/// Every value a device can report (any 32-bit axis value, any axis range, resolution or fuzz)
/// and every target within ``TouchCore/Limits`` map to finite points: locations stay within
/// ``TouchCore/Limits/coordinate``, sizes and forces are finite and never negative.
///
/// Location: x and y are normalised through the axis ranges (`(x − min)/(max − min)`; a zero-width
/// range gives 0.5), corrected by the ``MappingTransform`` (matrix, rotation, swap, inversion,
/// clamping), then scaled into the target's region.
///
/// Size: ``TouchCore/InputContact/majorRadius`` is half the touch major. Millimetres come from the position
/// axes' resolution (the mean of x and y, in units per mm, when both are set) and become points
/// through ``MappingTarget/pointsPerMillimetre``; without a resolution, device units become points
/// by the position scale `√(region area / device area)`, which a rotation or swap does not change.
/// The touch-major axis's own resolution is ignored: the kernel measures touch major in position
/// units, and real devices declare nonsense there (3M: 1 unit/mm for a 32767-unit axis).
/// ``TouchCore/InputContact/majorRadiusTolerance`` is half the touch-major axis's fuzz, or half a unit when
/// it has none, converted the same way. The calibration matrix's scaling is not applied to sizes.
///
/// Force: a typical touch is taken to press 15 % of the pressure range, so
/// `force = (p − min) / (0.15 · (max − min))`, clamped to `0…maximumPossibleForce`, and
/// `maximumPossibleForce = 1 / 0.15 ≈ 6.67`, close to UIKit's.
public struct DeviceMapping: Hashable, Sendable {
    /// The fraction of the pressure range a typical touch presses.
    public static let typicalPressureFraction = 0.15

    /// Everything a mapping holds, and what it derives once from it, in one shared object: a
    /// mapping is part of a pipeline that is moved on every read, so it stays one reference wide.
    private final class Storage: Sendable {
        let axes: MappingAxes
        let transform: MappingTransform
        let target: MappingTarget
        let region: Rect
        let pointsPerUnit: Double
        let tolerance: Double
        let pressureAxis: AbsInfo?
        /// The largest coordinates inside the region's half-open area (just before its far edges).
        let farX: Double
        let farY: Double

        init(axes: MappingAxes, transform: MappingTransform, target: MappingTarget) {
            self.axes = axes
            self.transform = transform
            self.target = target
            region = target.effectiveRegion
            pointsPerUnit = Self.pointsPerUnit(axes: axes, target: target, region: region)
            let fuzz = axes.touchMajor?.fuzz ?? 0
            tolerance = DeviceMapping.length((fuzz > 0 ? Double(fuzz) / 2 : 0.5) * pointsPerUnit)
            pressureAxis = axes.pressure.flatMap { $0.maximum > $0.minimum ? $0 : nil }
            farX = Self.far(region.minX, region.maxX)
            farY = Self.far(region.minY, region.maxY)
        }

        /// The largest coordinate a clamped location takes below `max`: a step of
        /// ``TouchCore/Limits/writtenCoordinateStep`` inside, so that it is still inside when written
        /// (rounded to that step), never `max` itself; `min` when the region is narrower than that.
        static func far(_ min: Double, _ max: Double) -> Double {
            Swift.max(min, Swift.min(max.nextDown, max - Limits.writtenCoordinateStep))
        }

        static func pointsPerUnit(axes: MappingAxes, target: MappingTarget, region: Rect) -> Double {
            if axes.x.resolution > 0 && axes.y.resolution > 0 {
                let unitsPerMillimetre = (Double(axes.x.resolution) + Double(axes.y.resolution)) / 2
                return DeviceMapping.length(target.pointsPerMillimetre / unitsPerMillimetre)
            }
            let deviceArea = DeviceMapping.span(axes.x) * DeviceMapping.span(axes.y)
            return DeviceMapping.length((abs(region.width * region.height) / deviceArea).squareRoot())
        }
    }

    private let storage: Storage

    /// The device's ranges.
    public var axes: MappingAxes { storage.axes }
    /// The corrections applied in normalised coordinates.
    public var transform: MappingTransform { storage.transform }
    /// The window, region and density contacts are mapped into.
    public var target: MappingTarget { storage.target }

    /// A mapping for explicit axes.
    public init(axes: MappingAxes, transform: MappingTransform = .identity, target: MappingTarget) {
        storage = Storage(axes: axes, transform: transform, target: target)
    }

    /// A mapping for the axes ``DeviceCapabilities`` chose for a device.
    public init(capabilities: DeviceCapabilities, transform: MappingTransform = .identity, target: MappingTarget) {
        self.init(axes: MappingAxes(capabilities: capabilities), transform: transform, target: target)
    }

    /// Whether two mappings have the same axes, transform and target.
    public static func == (lhs: DeviceMapping, rhs: DeviceMapping) -> Bool {
        lhs.axes == rhs.axes && lhs.transform == rhs.transform && lhs.target == rhs.target
    }

    /// Hashes the axes, transform and target.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(axes)
        hasher.combine(transform)
        hasher.combine(target)
    }

    /// The contact in window points, with UIKit's physical properties: the core's input.
    public func map(_ contact: DeviceContact) -> InputContact {
        let (radius, tolerance) = self.radius(touchMajor: contact.touchMajor)
        let (force, maximum) = self.force(pressure: contact.pressure)
        return InputContact(
            id: contact.id, phase: contact.phase, location: location(x: contact.x, y: contact.y), majorRadius: radius,
            majorRadiusTolerance: tolerance, force: force, maximumPossibleForce: maximum)
    }

    /// A device position in window points, within ``TouchCore/Limits/coordinate``.
    ///
    /// When the transform clamps (the default), the location lies in the region's half-open area,
    /// `minX ..< maxX` by `minY ..< maxY`, as a view's bounds are: a contact at an axis's maximum
    /// (which real panels report), or one that a rotation, an inversion or a calibration puts
    /// there, lands a millionth of a point inside the far edge (``TouchCore/Limits/writtenCoordinateStep``,
    /// so that it is written inside too: `1079.999999` in a 1080-point window), where the window's
    /// hit-test finds it, never on the edge itself, which belongs to nothing.
    public func location(x: Int32, y: Int32) -> Point {
        let storage = self.storage
        let normal = storage.transform.apply(to: Point(x: Self.normalise(x, storage.axes.x), y: Self.normalise(y, storage.axes.y)))
        let region = storage.region
        var point = Point(x: region.minX + normal.x * region.width, y: region.minY + normal.y * region.height)
        if storage.transform.clampsToRegion {
            point.x = min(point.x, storage.farX)
            point.y = min(point.y, storage.farY)
        }
        return Point(x: Self.coordinate(point.x), y: Self.coordinate(point.y))
    }

    /// `(majorRadius, majorRadiusTolerance)` in points for a touch major in device units; a
    /// negative touch major (a device's nonsense) counts as 0.
    public func radius(touchMajor: Int32?) -> (radius: Double, tolerance: Double) {
        guard let touchMajor else { return (0, 0) }
        return (Self.length(Double(max(touchMajor, 0)) / 2 * storage.pointsPerUnit), storage.tolerance)
    }

    /// `(force, maximumPossibleForce)` for a pressure in device units; `(0, 0)` without a pressure axis.
    public func force(pressure: Int32?) -> (force: Double, maximum: Double) {
        guard let pressure, let axis = storage.pressureAxis else { return (0, 0) }
        let span = Double(axis.maximum) - Double(axis.minimum)
        let typical = Self.typicalPressureFraction * span
        let maximum = span / typical
        let force = (Double(pressure) - Double(axis.minimum)) / typical
        return (min(max(force, 0), maximum), maximum)
    }

    /// Points per device unit for sizes (see the type's discussion): finite, never negative.
    public var pointsPerUnit: Double { storage.pointsPerUnit }

    /// `value` within ``TouchCore/Limits/coordinate`` (NaN, never produced from checked input,
    /// becomes 0).
    private static func coordinate(_ value: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return min(max(value, -Limits.maximumPoints), Limits.maximumPoints)
    }

    /// `value` within ``TouchCore/Limits/length``.
    fileprivate static func length(_ value: Double) -> Double {
        guard !value.isNaN else { return 0 }
        return min(max(value, 0), Limits.maximumPoints)
    }

    fileprivate static func span(_ axis: AbsInfo) -> Double {
        max(Double(axis.maximum) - Double(axis.minimum), 1)
    }

    private static func normalise(_ value: Int32, _ axis: AbsInfo) -> Double {
        guard axis.maximum != axis.minimum else { return 0.5 }
        return (Double(value) - Double(axis.minimum)) / (Double(axis.maximum) - Double(axis.minimum))
    }
}
