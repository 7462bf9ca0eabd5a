import TouchCore

/// The rectangles already placed on a picture (labels, hit-test reasons) and whether a new one
/// would overlap any of them.
///
/// A grid of cells indexes the rectangles, so that a question tests only those in the cells it
/// covers instead of every one placed: placing n labels over a window costs a few tests per
/// label instead of n² / 2. The answers are exact, the same as testing every placed rectangle with
/// `Rect.intersection(_:) != nil`; the grid only chooses which to test. The tests made are counted
/// against a budget: once it is spent, every question answers "overlaps" without testing anything,
/// so that no arrangement (thousands of labels piled on one spot) can make placement quadratic.
struct PlacedBoxes {
    /// A cell of the grid: its column and row.
    private struct Cell: Hashable {
        var column: Int
        var row: Int
    }

    /// A rectangle covering more cells than this is kept out of the grid and tested by every question.
    static let maximumCellsPerBox = 256
    /// Cell indices are clamped to this: far-off rectangles share the outermost cells, and no
    /// index computation can overflow.
    private static let indexBound = 1 << 40

    let cellWidth: Double
    let cellHeight: Double
    /// The overlap tests allowed.
    let testBudget: Int
    /// Overlap tests made so far.
    private(set) var tests = 0
    /// Every rectangle placed, in order.
    private(set) var boxes: [Rect] = []
    /// The rectangles of each cell, as indices into ``boxes``.
    private var cells: [Cell: [Int]] = [:]
    /// Rectangles kept out of the grid (see ``maximumCellsPerBox``).
    private var large: [Int] = []
    /// For each rectangle, the last question that tested it: one in several cells is tested once.
    private var lastQuestion: [Int] = []
    private var questions = 0

    /// - Parameters:
    ///   - cellWidth, cellHeight: about the size of the rectangles to be placed (a non-positive or
    ///     non-finite size counts as 1).
    ///   - testBudget: the overlap tests allowed.
    init(cellWidth: Double, cellHeight: Double, testBudget: Int) {
        self.cellWidth = cellWidth.isFinite && cellWidth > 0 ? cellWidth : 1
        self.cellHeight = cellHeight.isFinite && cellHeight > 0 ? cellHeight : 1
        self.testBudget = max(0, testBudget)
    }

    /// Whether the budget of tests is spent: from now on every question answers "overlaps".
    var isExhausted: Bool { tests >= testBudget }

    /// Adds a rectangle.
    mutating func insert(_ box: Rect) {
        let index = boxes.count
        boxes.append(box)
        lastQuestion.append(0)
        guard let (columns, rows) = cellRange(of: box) else {
            large.append(index)
            return
        }
        for row in rows {
            for column in columns { cells[Cell(column: column, row: row), default: []].append(index) }
        }
    }

    /// Whether `box` overlaps a placed rectangle (other than any equal to `own`); `true` once the
    /// budget of tests is spent.
    mutating func overlaps(_ box: Rect, except own: Rect? = nil) -> Bool {
        questions += 1
        func hits(_ index: Int) -> Bool {
            guard lastQuestion[index] != questions else { return false }
            lastQuestion[index] = questions
            tests += 1
            let other = boxes[index]
            return other != own && other.intersection(box) != nil
        }
        for index in large {
            if isExhausted { return true }
            if hits(index) { return true }
        }
        guard let (columns, rows) = cellRange(of: box) else {
            // A question as large as the picture: every rectangle is a candidate.
            for index in boxes.indices {
                if isExhausted { return true }
                if hits(index) { return true }
            }
            return isExhausted
        }
        for row in rows {
            for column in columns {
                // The latest first: piled-up labels meet their neighbours soonest.
                for index in (cells[Cell(column: column, row: row)] ?? []).reversed() {
                    if isExhausted { return true }
                    if hits(index) { return true }
                }
            }
        }
        return isExhausted
    }

    /// The columns and rows of the cells `box` covers, or `nil` when they are more than
    /// ``maximumCellsPerBox``.
    private func cellRange(of box: Rect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        let bounds = -Self.indexBound...Self.indexBound
        let left = Int(rounding: box.minX / cellWidth, .down, clampedTo: bounds)
        let right = Int(rounding: box.maxX / cellWidth, .down, clampedTo: bounds)
        let top = Int(rounding: box.minY / cellHeight, .down, clampedTo: bounds)
        let bottom = Int(rounding: box.maxY / cellHeight, .down, clampedTo: bounds)
        guard left <= right, top <= bottom else { return nil }
        let across = right - left + 1
        let down = bottom - top + 1
        guard across <= Self.maximumCellsPerBox, down <= Self.maximumCellsPerBox, across * down <= Self.maximumCellsPerBox else {
            return nil
        }
        return (left...right, top...bottom)
    }
}
