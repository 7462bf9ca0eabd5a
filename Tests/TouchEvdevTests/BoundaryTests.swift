import Testing
import TouchCore
import TouchEvdev

/// Numbers at the edges of their domains: calibration files and matrices are refused by position,
/// never by echoing what they hold, and any axis or target maps to finite points.
@Suite(.timeLimit(.minutes(10))) struct CalibrationBoundaryTests {
    @Test func aPointercalErrorNamesTheFieldNeverTheContent() throws {
        #expect {
            try Pointercal.parse("password=hunter2\n")
        } throws: { error in
            guard let error = error as? CalibrationError else { return false }
            return error.line == 1 && error.field == 1 && !error.description.contains("hunter2")
                && !error.description.contains("password")
                && error.description == "pointercal:1: field 1: expected a0, a whole number from -2147483648 to 2147483647"
        }
    }

    @Test(arguments: [
        ("1 0 0\n0 1 0\n1 0 0 9\n", 3, 8, "xres, a whole number from 1 to 1000000 (pixels)"),
        ("1 0 0\n0 1 0\n", 2, nil, "found 6 fields"),
        ("1 0 0 0 1 0 1 0 480\n", 1, 8, "xres, a whole number from 1 to 1000000 (pixels)"),
        ("1 0 0 0 1 0 1 800 480 7\n", 1, 10, "rotation, a whole number from 0 to 3 (quarter turns)"),
        ("1 0 2147483648 0 1 0 1\n", 1, 3, "a2, a whole number from -2147483648 to 2147483647"),
        ("1 0 0 0 1 0 1 800 480 0 1\n", 1, nil, "found 11 fields"),
        ("1 0 0 0 1 0\n\n\n0\n", 4, 7, "a6, a divisor other than 0"),
    ] as [(String, Int, Int?, String)])
    func pointercalFieldsAreCheckedAgainstTheirDomains(text: String, line: Int, field: Int?, expected: String) {
        #expect {
            try Pointercal.parse(text)
        } throws: { error in
            guard let error = error as? CalibrationError else { return false }
            return error.line == line && error.field == field && error.expected.contains(expected)
        }
    }

    @Test func udevMatricesAreCheckedAgainstTheirDomain() {
        for (text, field) in [("1e300 0 0 0 1 0", 1), ("1 0 0 0 1 secret", 6), ("1 0 0 0 inf 0", 5), ("1 0 0 0 1 -1000001", 6)] {
            #expect {
                try CalibrationMatrix.parse(udevProperty: text)
            } throws: { error in
                guard let error = error as? CalibrationError else { return false }
                return error.field == field && !error.description.contains("secret")
            }
        }
    }

    @Test func aPointercalForAHugeWindowOrAStrangeAxisNeverTraps() throws {
        let pointercal = try Pointercal.parse("65536 0 0 0 65536 0 65536\n")
        let axis = AbsInfo(minimum: 0, maximum: 4095)
        // A window of 1e19 points (outside Limits.windowLength, which the layout checks).
        let matrix = try pointercal.normalisedMatrix(xAxis: axis, yAxis: axis, screenSize: Size(width: 1e19, height: 1e19))
        #expect(matrix.firstCoefficientOutsideDomain == nil)
        for size in [Size(width: .nan, height: 1), Size(width: .infinity, height: 1), Size(width: 0, height: 1), Size(width: -5, height: 1)] {
            #expect(throws: CalibrationError.self) { try pointercal.normalisedMatrix(xAxis: axis, yAxis: axis, screenSize: size) }
        }
        // A calibration made for a small device, on a 32-bit axis, gives a matrix out of its domain.
        let big = try Pointercal.parse("2147483647 0 0 0 1 0 1 1 1\n")
        let extreme = AbsInfo(minimum: Int32.min, maximum: Int32.max)
        #expect {
            try big.normalisedMatrix(xAxis: extreme, yAxis: extreme)
        } throws: { error in
            (error as? CalibrationError)?.expected.contains("coefficient 1") == true
        }
        // Equal or reversed axes give a matrix, finite, that the pipeline refuses on its own terms.
        let flat = try pointercal.normalisedMatrix(xAxis: AbsInfo(minimum: 5, maximum: 5), yAxis: AbsInfo(minimum: 9, maximum: 1), screenSize: Size(width: 1, height: 1))
        #expect(flat.coefficients.allSatisfy { $0.isFinite })
    }
}

@Suite(.timeLimit(.minutes(10))) struct MappingBoundaryTests {
    static let extreme = AbsInfo(minimum: Int32.min, maximum: Int32.max, fuzz: Int32.max, resolution: 0)

    @Test(arguments: [
        AbsInfo(minimum: Int32.min, maximum: Int32.max), AbsInfo(minimum: Int32.max, maximum: Int32.min),
        AbsInfo(minimum: 0, maximum: 0), AbsInfo(minimum: 5, maximum: 6, fuzz: Int32.max, resolution: Int32.max),
        AbsInfo(minimum: -1, maximum: 1, fuzz: Int32.min, resolution: Int32.min),
    ])
    func anyAxisMapsToFinitePointsInsideTheCoordinateDomain(axis: AbsInfo) {
        let axes = MappingAxes(x: axis, y: axis, touchMajor: axis, pressure: axis)
        let targets = [
            MappingTarget(windowSize: Size(width: 1e19, height: 1e19), pointsPerMillimetre: .nan),
            MappingTarget(windowSize: Size(width: 800, height: 480), region: Rect(x: -1e6, y: 1e6, width: 1e6, height: 0), pointsPerMillimetre: 1000),
            MappingTarget(windowSize: Size(width: .infinity, height: 0), pointsPerMillimetre: 0),
        ]
        let transforms = [
            MappingTransform.identity,
            MappingTransform(calibration: CalibrationMatrix(a: 1e308, b: -1e308, c: 1e308, d: .nan, e: 1, f: 0), clampsToRegion: false),
            MappingTransform(rotation: .clockwise270, swapsAxes: true, invertsX: true, clampsToRegion: false),
        ]
        for target in targets {
            for transform in transforms {
                let mapping = DeviceMapping(axes: axes, transform: transform, target: target)
                for value in [Int32.min, -1, 0, 1, Int32.max] {
                    let contact = DeviceContact(id: 1, phase: .moved, x: value, y: value, touchMajor: value, pressure: value)
                    let mapped = mapping.map(contact)
                    #expect(Limits.coordinate.contains(mapped.location.x) && Limits.coordinate.contains(mapped.location.y), "\(mapped)")
                    #expect(Limits.length.contains(mapped.majorRadius) && Limits.length.contains(mapped.majorRadiusTolerance), "\(mapped)")
                    #expect(mapped.force.isFinite && mapped.force >= 0 && mapped.maximumPossibleForce.isFinite)
                }
            }
        }
    }

    @Test func anySlotRangeIsCountedWithoutOverflow() {
        for (minimum, maximum) in [(Int32.min, Int32.max), (Int32.max, Int32.min), (0, Int32.max), (Int32.min, 0), (7, 3)] {
            var description = TestDevices.slotted()
            description.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: minimum, maximum: maximum, value: Int32.min)
            var assembler = FrameAssembler(description: description)
            #expect((1...Limits.maximumSlots).contains(assembler.capabilities.slotCount))
            var script = EventScript()
            script.down(slot: Int32.max, id: Int32.min, x: Int32.max, y: Int32.min)
            script.down(slot: 0, id: Int32.max, x: Int32.min, y: Int32.max)
            script.up(slot: 0)
            script.syn()
            _ = assembler.feed(script.take())
            _ = assembler.finish(at: script.now)
        }
    }

    @Test func theAccelerometerTakesAnyAxis() throws {
        let description = DeviceDescription(
            name: "accel", properties: [InputProperty.accelerometer],
            absInfo: [AbsCode.x: Self.extreme, AbsCode.y: AbsInfo(minimum: 0, maximum: 0, resolution: Int32.min), AbsCode.z: AbsInfo(minimum: 9, maximum: 1)])
        var decoder = try #require(AccelerometerDecoder(description: description, settings: ShakeSettings()))
        var script = EventScript()
        for value in [Int32.min, Int32.max, 0] {
            script.abs(AbsCode.x, value)
            script.abs(AbsCode.y, value)
            script.abs(AbsCode.z, value)
            script.syn()
        }
        _ = script.take().compactMap { decoder.feed($0) }
        let (x, y, z) = decoder.acceleration
        #expect(x.isFinite && y.isFinite && z.isFinite)
    }
}
