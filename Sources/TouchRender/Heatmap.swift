import TouchCore

/// Touch-down density: touch-downs counted in square cells over an area.
///
/// Only the cells that hold a touch-down are stored, so a heatmap costs memory and time in
/// proportion to its touch-downs whatever the size of its area: a window up to
/// `Limits.maximumPoints` on a side costs no more than a phone's. The grid is at most
/// ``maximumCellsPerSide`` cells across and down; over an area too large for the cell size asked
/// for, the cells grow until it fits (``cellSize`` says what they are).
public struct Heatmap: Hashable, Sendable {
    /// The most cells a heatmap has across, and the most it has down.
    public static let maximumCellsPerSide = 65_536
    /// The side of a cell, in points, when none (or one that is not a positive finite number) is given.
    public static let defaultCellSize = 16.0

    /// One cell that holds touch-downs.
    public struct Cell: Hashable, Sendable {
        public let column: Int
        public let row: Int
        /// The touch-downs counted in it (at least one).
        public let count: Int
    }

    /// The area covered, in window coordinates.
    public let area: Rect
    /// The side of a cell, in points: the one asked for, or larger over an area that would need
    /// more than ``maximumCellsPerSide`` cells across or down.
    public let cellSize: Double
    public let columns: Int
    public let rows: Int
    /// The counts of the cells that hold any, by `row * columns + column`.
    private var counts: [Int: Int] = [:]
    /// Touch-downs counted (inside the area).
    public private(set) var total = 0
    /// Touch-downs outside the area (not counted in any cell).
    public private(set) var outside = 0

    /// An empty heatmap of `area` in cells of `cellSize` points (see ``cellSize`` and
    /// ``defaultCellSize``). An area whose sides are not finite covers no point.
    public init(area: Rect, cellSize: Double) {
        self.area = area
        let width = area.width.isFinite ? max(0, area.width) : 0
        let height = area.height.isFinite ? max(0, area.height) : 0
        let asked = cellSize.isFinite && cellSize > 0 ? cellSize : Self.defaultCellSize
        let side = Double(Self.maximumCellsPerSide)
        self.cellSize = max(asked, width / side, height / side)
        let cells = 1...Self.maximumCellsPerSide
        columns = Int(rounding: width / self.cellSize, .up, clampedTo: cells)
        rows = Int(rounding: height / self.cellSize, .up, clampedTo: cells)
    }

    /// The touch-downs of `paths` (those with a `began` sample).
    public init(touchDownsOf paths: [TouchPath], area: Rect, cellSize: Double) {
        self.init(area: area, cellSize: cellSize)
        for path in paths {
            if let p = path.touchDown { add(p) }
        }
    }

    /// Counts a touch-down at `point`: in its cell, or as ``outside``.
    public mutating func add(_ point: Point) {
        guard area.contains(point) else {
            outside += 1
            return
        }
        let column = Int(rounding: (point.x - area.minX) / cellSize, .down, clampedTo: 0...(columns - 1))
        let row = Int(rounding: (point.y - area.minY) / cellSize, .down, clampedTo: 0...(rows - 1))
        counts[row * columns + column, default: 0] += 1
        total += 1
    }

    /// The touch-downs counted in a cell; 0 for a cell outside the grid.
    public func count(column: Int, row: Int) -> Int {
        guard (0..<columns).contains(column), (0..<rows).contains(row) else { return 0 }
        return counts[row * columns + column] ?? 0
    }

    /// The cells that hold touch-downs, row by row and left to right.
    public var occupiedCells: [Cell] {
        counts.keys.sorted().map { key in Cell(column: key % columns, row: key / columns, count: counts[key] ?? 0) }
    }

    /// The largest count of any cell.
    public var maximum: Int { counts.values.max() ?? 0 }

    /// A cell's rectangle, in window coordinates.
    public func cell(column: Int, row: Int) -> Rect {
        Rect(x: area.minX + Double(column) * cellSize, y: area.minY + Double(row) * cellSize, width: cellSize, height: cellSize)
    }
}
