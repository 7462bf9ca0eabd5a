import Testing
import TouchCore
@testable import TouchEvdev

/// Everything the calibration file's writer writes, its reader reads back: the matrix exactly,
/// the device's identity and the residuals as the writer brought them into the reader's domains.
/// Seeded: a failure names its seed and case.
@Suite(.timeLimit(.minutes(10))) struct CalibrationRoundTripTests {
    /// Scalars a device's name may hold: letters, marks that combine with what is before them,
    /// spaces and tabs, control characters, separators, astral characters, `#`.
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", ":", "/", "#", " ", "\t", "\n", "\r", "\u{0}", "\u{1B}", "\u{7}", "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}",
        "\u{301}", "\u{20DD}", "é", "€", "\u{200B}", "\u{FEFF}", "\u{1F389}", "\u{10FFFF}", "\u{E000}", "=", "\"", "\\",
    ]

    static func randomName(_ g: inout SplitMix) -> String? {
        switch g.next() % 8 {
        case 0: return nil
        case 1: return String(repeating: "d", count: Int(1000 + g.next() % 100))
        case 2: return String(repeating: "é", count: Int(500 + g.next() % 40)) + "\u{301}"
        default:
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int(g.next() % 40) { scalars.append(alphabet[Int(g.next() % UInt64(alphabet.count))]) }
            return String(scalars)
        }
    }

    static func randomNumber(_ g: inout SplitMix, in domain: NumberDomain) -> Double {
        let specials: [Double] = [
            0, -0.0, 1, domain.range.lowerBound, domain.range.upperBound, Double.leastNonzeroMagnitude, 1e-300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .infinity, -.infinity, .nan, 1e300, -1, 0.1, 1_000_000.000_001,
        ]
        if g.next() % 3 == 0 { return specials[Int(g.next() % UInt64(specials.count))] }
        let unit = Double(g.next() >> 11) / Double(1 << 53)
        return domain.range.lowerBound + unit * (domain.range.upperBound - domain.range.lowerBound)
    }

    static func randomMatrix(_ g: inout SplitMix) -> CalibrationMatrix {
        // A fitted matrix is always inside the domain, and never flattens the plane.
        while true {
            var c: [Double] = []
            for _ in 0..<6 {
                var x = randomNumber(&g, in: Limits.calibrationCoefficient)
                if !Limits.calibrationCoefficient.contains(x) { x = 0.5 }
                c.append(x)
            }
            let matrix = CalibrationMatrix(a: c[0], b: c[1], c: c[2], d: c[3], e: c[4], f: c[5])
            if !matrix.flattensThePlane { return matrix }
        }
    }

    @Test(arguments: [0x5eed_0001, 0x5eed_0002, 0x5eed_0003] as [UInt64])
    func everythingTheWriterWritesTheReaderReadsBack(seed: UInt64) throws {
        var g = SplitMix(seed: seed)
        for index in 0..<400 {
            let residuals = (0..<Int(g.next() % 80)).map { _ in Millimetres(Self.randomNumber(&g, in: Limits.millimetres)) }
            let file = CalibrationFile(matrix: Self.randomMatrix(&g), device: Self.randomName(&g), residualsMillimetres: residuals)
            let read: CalibrationFile
            do {
                read = try CalibrationFile.parse(file.text)
            } catch {
                Issue.record("seed \(seed) case \(index): \(error) for \(file.text.debugDescription.prefix(300))")
                continue
            }
            #expect(read.matrix == file.matrix, "seed \(seed) case \(index): the matrix exactly")
            if let device = read.device {
                #expect(device.utf8.count <= Limits.maximumDeviceNameBytes && !device.unicodeScalars.contains(where: Identifier.isControl))
                #expect(device == CalibrationFile.writableName(file.device ?? "") || device == CalibrationFile.asciiForm(CalibrationFile.writableName(file.device ?? "")))
            }
            #expect(read.residualsMillimetres == CalibrationFile.writableResiduals(file.residualsMillimetres), "seed \(seed) case \(index)")
            // What was read is written again the same.
            #expect(try CalibrationFile.parse(read.text) == read, "seed \(seed) case \(index)")
        }
    }

    @Test func anIdentityTooLongIsCutAndAResidualOutsideItsDomainBroughtIn() throws {
        let long = String(repeating: "touchscreen ", count: 200)
        let file = CalibrationFile(matrix: .identity, device: long, residualsMillimetres: [1e300, -2, 0.25, Millimetres(.infinity)])
        let read = try CalibrationFile.parse(file.text)
        let device = try #require(read.device)
        #expect(device.utf8.count <= Limits.maximumDeviceNameBytes && long.hasPrefix(device))
        #expect(read.residualsMillimetres == [1_000_000, 0, 0.25, 1_000_000])
        let controls = CalibrationFile(matrix: .identity, device: "evil\u{1B}]52;c;aGk=\u{7}\nmatrix 9 9 9 9 9 9", residualsMillimetres: [Millimetres(.nan)])
        let readControls = try CalibrationFile.parse(controls.text)
        #expect(readControls.device == "evil]52;c;aGk=matrix 9 9 9 9 9 9" && readControls.matrix == .identity)
        #expect(readControls.residualsMillimetres.isEmpty, "a residual that is not a number leaves the line out")
    }
}
