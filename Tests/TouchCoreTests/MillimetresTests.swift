import Testing
import TouchCore

/// Physical lengths: they become points through a window's density and back, and compare and add
/// as their numbers do, NaN included, and never trap.
@Suite(.timeLimit(.minutes(10))) struct MillimetresTests {
    @Test func aLengthBecomesPointsThroughTheWindowsDensityAndBack() {
        let slop: Millimetres = 7
        #expect(slop.points(at: 6.4) == 7 * 6.4)
        #expect(slop.points(at: WindowProperties.defaultPointsPerMillimetre) == 44.800000000000004, "as the Double product")
        #expect(Millimetres(points: 44.8, pointsPerMillimetre: 6.4) == Millimetres(44.8 / 6.4))
        #expect(Millimetres(points: 32, pointsPerMillimetre: 3.2) == 10)
        #expect(Millimetres(points: 64, pointsPerMillimetre: 6.4).points(at: 6.4) == 64)
        #expect(Millimetres.zero.points(at: 20) == 0)
        #expect(Millimetres(1.6).points(at: 0) == 0)
    }

    @Test func literalsAndArithmeticAreTheDoublesOwn() {
        let residuals: [Millimetres] = [0.31, 0.42, 1, 0.25]
        #expect(residuals.reduce(.zero, +) == Millimetres(0.31 + 0.42 + 1 + 0.25))
        #expect(residuals.reduce(.zero, +) / Double(residuals.count) == Millimetres((0.31 + 0.42 + 1 + 0.25) / 4))
        #expect(residuals.max() == 1 && residuals.min() == 0.25)
        #expect(Millimetres(10) - 2.5 == 7.5 && Millimetres(1.5) * 4 == 6)
        #expect(Millimetres(9).value == 9.0)
        #expect("\(Millimetres(9))" == "9.0 mm")
    }

    @Test func aNaNLengthIsNeitherShorterNorLonger() {
        // A threshold no layout gives (the core takes any value): it compares as NaN does, so no
        // movement is ever "beyond" it and no target "smaller" than it.
        let nan = Millimetres(.nan)
        for length: Millimetres in [0, 9, Millimetres(.infinity), Millimetres(-.infinity)] {
            #expect(!(nan < length) && !(nan <= length) && !(nan > length) && !(nan >= length))
            #expect(!(length < nan) && !(length <= nan) && !(length > nan) && !(length >= nan))
        }
        #expect(nan != nan, "equality is the Double's too")
        #expect(nan.points(at: 6.4).isNaN && (nan + 1).value.isNaN)
    }

    @Test func extremeValuesAndDensitiesNeverTrap() {
        #expect(Millimetres(.greatestFiniteMagnitude).points(at: 1_000) == .infinity)
        #expect(Millimetres(points: 10, pointsPerMillimetre: 0) == Millimetres(.infinity))
        #expect(Millimetres(points: 0, pointsPerMillimetre: 0).value.isNaN)
        #expect(Millimetres(-3).points(at: 2) == -6, "a length may be negative")
        #expect(Millimetres(.infinity) > Millimetres(.greatestFiniteMagnitude))
    }
}
