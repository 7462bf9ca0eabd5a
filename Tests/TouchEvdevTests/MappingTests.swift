import Testing
import TouchCore
import TouchEvdev

/// DeviceMapping: normalisation, the correction order, region scaling, radius and force.
@Suite(.timeLimit(.minutes(10))) struct MappingTests {
    /// A 0…1000 device onto a 2000×1000 window, resolution 10 units/mm, 8 points/mm.
    static let axes = MappingAxes(
        x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10), y: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
        touchMajor: AbsInfo(minimum: 0, maximum: 255, fuzz: 4), pressure: AbsInfo(minimum: 0, maximum: 255))
    static let target = MappingTarget(windowSize: Size(width: 2000, height: 1000), pointsPerMillimetre: 8)

    private func location(_ transform: MappingTransform, _ x: Int32, _ y: Int32, target: MappingTarget = target) -> [Double] {
        let point = DeviceMapping(axes: Self.axes, transform: transform, target: target).location(x: x, y: y)
        return [point.x, point.y]
    }

    /// The largest value below `edge`: where a contact at an axis's far end lands, inside the
    /// window's half-open area.
    private func inside(_ edge: Double) -> Double { edge - Limits.writtenCoordinateStep }

    @Test func identityScalesIntoTheWindow() {
        #expect(location(.identity, 0, 0) == [0, 0])
        #expect(location(.identity, 1000, 1000) == [inside(2000), inside(1000)])
        #expect(location(.identity, 250, 500) == [500, 500])
    }

    @Test func rotationsAreClockwise() {
        // The device's top-left corner, (0, 0), turns with the picture.
        #expect(location(MappingTransform(rotation: .clockwise90), 0, 0) == [inside(2000), 0])
        #expect(location(MappingTransform(rotation: .clockwise180), 0, 0) == [inside(2000), inside(1000)])
        #expect(location(MappingTransform(rotation: .clockwise270), 0, 0) == [0, inside(1000)])
        #expect(location(MappingTransform(rotation: .clockwise90), 250, 0) == [inside(2000), 250])
    }

    @Test func swapAndInversion() {
        #expect(location(MappingTransform(swapsAxes: true), 250, 500) == [1000, 250])
        #expect(location(MappingTransform(invertsX: true), 250, 500) == [1500, 500])
        #expect(location(MappingTransform(invertsY: true), 250, 100) == [500, 900])
        // Order: rotation, then swap, then inversion.
        #expect(location(MappingTransform(rotation: .clockwise90, swapsAxes: true, invertsX: true), 250, 100) == [1500, 900])
    }

    @Test func theUdevMatrixMatchesTheEquivalentRotation() throws {
        let matrix = try CalibrationMatrix.parse(udevProperty: "0 -1 1 1 0 0")
        for (x, y) in [(0, 0), (250, 100), (1000, 400)] as [(Int32, Int32)] {
            #expect(location(MappingTransform(calibration: matrix), x, y) == location(MappingTransform(rotation: .clockwise90), x, y))
        }
        let halved = try CalibrationMatrix.parse(udevProperty: "0.5\t0 0.25  0 0.5 0.25")
        #expect(location(MappingTransform(calibration: halved), 1000, 0) == [1500, 250])
        #expect(try CalibrationMatrix.fromUdev(["LIBINPUT_CALIBRATION_MATRIX": "-1 0 1 0 -1 1"])
            == CalibrationMatrix(a: -1, b: 0, c: 1, d: 0, e: -1, f: 1))
        #expect(try CalibrationMatrix.fromUdev([:]) == nil)
    }

    @Test(arguments: ["", "1 0 0 0 1", "1 0 0 0 1 0 0", "1 0 x 0 1 0", "1 0 nan 0 1 0"])
    func malformedMatricesAreRejected(text: String) {
        #expect(throws: CalibrationError.self) { try CalibrationMatrix.parse(udevProperty: text) }
    }

    @Test func theMatrixComesBeforeTheRotationSwapAndInversion() {
        // Shifted right by half the device, then turned a quarter clockwise: (0, 0) becomes
        // (0.5, 0), then (1, 0.5). Turned first, it would become (1, 0), then (1.5, 0), clamped.
        let shift = CalibrationMatrix(a: 1, b: 0, c: 0.5, d: 0, e: 1, f: 0)
        #expect(location(MappingTransform(calibration: shift, rotation: .clockwise90), 0, 0) == [inside(2000), 500])
        // Then the swap and the inversions, as docs/layout.md lists them.
        #expect(location(MappingTransform(calibration: shift, swapsAxes: true, invertsY: true), 0, 0) == [0, 500])
    }

    @Test func theMatrixComesFirstThenTheRegion() {
        let region = MappingTarget(windowSize: Size(width: 2000, height: 1000), region: Rect(x: 100, y: 50, width: 400, height: 200),
            pointsPerMillimetre: 8)
        let shift = MappingTransform(calibration: CalibrationMatrix(a: 1, b: 0, c: 0.5, d: 0, e: 1, f: 0))
        #expect(location(shift, 0, 0, target: region) == [300, 50])
        // Clamped to the region by default; unclamped on request.
        #expect(location(shift, 1000, 1000, target: region) == [inside(500), inside(250)])
        var loose = shift
        loose.clampsToRegion = false
        #expect(location(loose, 1000, 1000, target: region) == [700, 250])
    }

    @Test func pointercalBecomesAnEquivalentNormalisedMatrix() throws {
        // Device 0…4095 on both axes, screen 800×480. This calibration maps x' = x·800/4095 flipped:
        // x' = (800·4095 − 800·x) / 4095, y' = (480·y) / 4095, with a6 = 4095.
        let text = "-800 0 3276000 0 480 0 4095 800 480 0\n"
        let pointercal = try Pointercal.parse(text)
        #expect(pointercal.screenWidth == 800)
        #expect(pointercal.rotation == 0)
        let xAxis = AbsInfo(minimum: 0, maximum: 4095)
        let matrix = try pointercal.normalisedMatrix(xAxis: xAxis, yAxis: xAxis)
        let axes = MappingAxes(x: xAxis, y: xAxis)
        let target = MappingTarget(windowSize: Size(width: 800, height: 480), pointsPerMillimetre: 4)
        let mapping = DeviceMapping(axes: axes, transform: MappingTransform(calibration: matrix), target: target)
        for (x, y) in [(0, 0), (4095, 4095), (1000, 3000)] as [(Int32, Int32)] {
            // The far edges themselves are kept a written step inside (see the clamp).
            let tslibX = min((3_276_000 - 800 * Double(x)) / 4095, 800 - Limits.writtenCoordinateStep)
            let tslibY = min(480 * Double(y) / 4095, 480 - Limits.writtenCoordinateStep)
            let point = mapping.location(x: x, y: y)
            #expect(abs(point.x - tslibX) < 1e-9 && abs(point.y - tslibY) < 1e-9, "(\(x), \(y))")
        }
        // A file without the screen size needs it from the caller.
        let bare = try Pointercal.parse("1 0 0 0 1 0 1")
        #expect(throws: CalibrationError.self) { try bare.normalisedMatrix(xAxis: xAxis, yAxis: xAxis) }
        let identity = try bare.normalisedMatrix(
            xAxis: AbsInfo(minimum: 0, maximum: 100), yAxis: AbsInfo(minimum: 0, maximum: 100), screenSize: Size(width: 100, height: 100))
        #expect(identity == .identity)
    }

    @Test(arguments: ["1 2 3", "1 0 0 0 1 0 0", "a 0 0 0 1 0 1", "1 0 0 0 1 0 1 -5 10"])
    func malformedPointercalsAreRejected(text: String) {
        #expect(throws: CalibrationError.self) { try Pointercal.parse(text) }
    }

    @Test func aHandMadePointercalWithTooFewCoefficientsIsRejected() {
        let axis = AbsInfo(minimum: 0, maximum: 10)
        #expect(throws: CalibrationError.self) {
            try Pointercal(coefficients: [1, 2], screenWidth: 10, screenHeight: 10).normalisedMatrix(xAxis: axis, yAxis: axis)
        }
    }

    @Test func radiusComesFromTheResolutionWhenThereIsOne() {
        let mapping = DeviceMapping(axes: Self.axes, target: Self.target)
        // 120 units at 10 units/mm = 12 mm across: a 6 mm radius, 48 points at 8 points/mm.
        let (radius, tolerance) = mapping.radius(touchMajor: 120)
        #expect(radius == 48)
        // Fuzz 4 → ±2 units = 0.2 mm = 1.6 points.
        #expect(abs(tolerance - 1.6) < 1e-12)
        #expect(mapping.radius(touchMajor: nil) == (0, 0))
    }

    @Test func radiusComesFromThePositionScaleWithoutResolution() {
        let axes = MappingAxes(
            x: AbsInfo(minimum: 0, maximum: 4000), y: AbsInfo(minimum: 0, maximum: 1000),
            touchMajor: AbsInfo(minimum: 0, maximum: 255))
        let target = MappingTarget(windowSize: Size(width: 1000, height: 1000), pointsPerMillimetre: 8)
        let mapping = DeviceMapping(axes: axes, target: target)
        // √(1000·1000 / (4000·1000)) = 0.5 points per unit.
        #expect(mapping.pointsPerUnit == 0.5)
        let (radius, tolerance) = mapping.radius(touchMajor: 100)
        #expect(radius == 25)
        #expect(tolerance == 0.25, "half a unit without fuzz")
        let rotated = DeviceMapping(axes: axes, transform: MappingTransform(rotation: .clockwise90), target: target)
        #expect(rotated.radius(touchMajor: 100).radius == 25, "a rotation does not change sizes")
    }

    @Test func forceIsOneForATypicalTouch() {
        let mapping = DeviceMapping(axes: Self.axes, target: Self.target)
        // Typical = 15 % of 0…255 = 38.25.
        let (typical, maximum) = mapping.force(pressure: 0)
        #expect(typical == 0)
        #expect(abs(maximum - 1 / 0.15) < 1e-12)
        #expect(abs(mapping.force(pressure: 51).force - 51 / 38.25) < 1e-12)
        #expect(abs(mapping.force(pressure: 255).force - maximum) < 1e-12)
        let offset = DeviceMapping(
            axes: MappingAxes(x: Self.axes.x, y: Self.axes.y, pressure: AbsInfo(minimum: 100, maximum: 300)),
            target: Self.target)
        #expect(abs(offset.force(pressure: 130).force - 1) < 1e-12)
        let noPressure = DeviceMapping(axes: MappingAxes(x: Self.axes.x, y: Self.axes.y), target: Self.target)
        #expect(noPressure.force(pressure: 50) == (0, 0))
    }

    @Test func aContactMapsWithAllItsProperties() {
        let mapping = DeviceMapping(axes: Self.axes, target: Self.target)
        let contact = DeviceContact(id: 9, phase: .moved, x: 500, y: 250, touchMajor: 80, pressure: 51)
        let mapped = mapping.map(contact)
        #expect(mapped.id == 9)
        #expect(mapped.phase == .moved)
        #expect([mapped.location.x, mapped.location.y] == [1000, 250])
        #expect(mapped.majorRadius == 32)
        #expect(abs(mapped.force - 51 / 38.25) < 1e-12)
    }

    @Test func negativeRangesNormaliseLikeAnyOther() {
        // bcm5974: x from -4620 to 5140.
        let axes = MappingAxes(x: AbsInfo(minimum: -4620, maximum: 5140), y: AbsInfo(minimum: -150, maximum: 6600))
        let mapping = DeviceMapping(axes: axes, target: MappingTarget(windowSize: Size(width: 976, height: 675), pointsPerMillimetre: 4))
        let low = mapping.location(x: -4620, y: -150)
        let high = mapping.location(x: 5140, y: 6600)
        #expect([low.x, low.y, high.x, high.y] == [0, 0, inside(976), inside(675)])
        let middle = mapping.location(x: 260, y: 3225)
        #expect(abs(middle.x - 488) < 1e-9 && abs(middle.y - 337.5) < 1e-9)
    }
}
