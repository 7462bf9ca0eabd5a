/// A spatial index of one view's subviews, so that hit-testing a view with many subviews looks only
/// at those whose hit area can contain the point instead of scanning them all.
///
/// The superview's bounds space is cut into a grid of cells; each cell lists, in z-order, the
/// subviews whose hit area (`frame` grown by `hitExpansion`, in the superview's coordinates)
/// overlaps it. Subviews that can never be hit (hidden, not interactive, transparent, or with an
/// empty hit area) are left out. Points and areas outside the grid are clamped onto its edge cells,
/// so the index stays correct when subviews are added or moved outside the area it was built for;
/// it only gets slower, and ``ViewTree`` rebuilds it when the number of subviews has doubled.
///
/// Sibling z-order is node order: a view added later has a larger node index and is on top, and
/// views are never reordered, so each cell is kept sorted by node index and read from the end.
struct SubviewGrid: Sendable {
    /// A subview's place in the grid: the cell ranges it is listed in.
    enum Placement: Equatable, Sendable {
        /// Never hit: not listed.
        case none
        /// Listed in the cells `columns × rows`.
        case cells(columns: ClosedRange<Int>, rows: ClosedRange<Int>)
        /// Its area cannot be placed (not a number) or covers more than ``maximumCellsPerView``
        /// cells: listed as a candidate everywhere.
        case everywhere
    }

    /// Where a subview can answer points, as its superview's coordinates say.
    enum Area: Equatable, Sendable {
        /// Never hit.
        case never
        /// Inside this rectangle (its hit area).
        case rect(Rect)
        /// At any point (a view that answers points outside itself).
        case everywhere
    }

    /// Superviews with at least this many subviews are indexed; below it a scan is as fast (at 16
    /// and 20 subviews, a row of buttons and a stack of rows, the index halves a hit-test).
    static let threshold = 8

    /// A subview covering more cells than this is listed once, as a candidate everywhere, so that
    /// many large overlapping subviews (full-screen overlays) cost memory in proportion to their
    /// number, not to their number times the cells.
    static let maximumCellsPerView = 64

    private(set) var minX: Double
    private(set) var minY: Double
    private(set) var cellWidth: Double
    private(set) var cellHeight: Double
    private(set) var columns: Int
    private(set) var rows: Int
    /// Node indices per cell, ascending (bottom to top), row-major.
    private var cells: [[Int32]]
    /// Node indices listed for every point, ascending.
    private var everywhere: [Int32] = []
    /// How many subviews the grid was built for (it is rebuilt when they double).
    let builtFor: Int

    /// Builds the grid for `children` (node indices in z-order) with their hit areas in the
    /// superview's coordinates, `nil` for a subview that can never be hit.
    init(children: [Int32], area: (Int32) -> Area) {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        var areas: [(Int32, Rect)] = []
        var anywhere: [Int32] = []
        areas.reserveCapacity(children.count)
        for child in children {
            let rect: Rect
            switch area(child) {
            case .never: continue
            case .everywhere:
                anywhere.append(child)
                continue
            case .rect(let r): rect = r
            }
            areas.append((child, rect))
            for x in [rect.minX, rect.maxX] where x.isFinite {
                x0 = min(x0, x)
                x1 = max(x1, x)
            }
            for y in [rect.minY, rect.maxY] where y.isFinite {
                y0 = min(y0, y)
                y1 = max(y1, y)
            }
        }
        if !(x0 <= x1) { (x0, x1) = (0, 1) }
        if !(y0 <= y1) { (y0, y1) = (0, 1) }
        let width = max(x1 - x0, 1)
        let height = max(y1 - y0, 1)
        let (columns, rows) = Self.shape(width: width, height: height, areas: areas.map { $0.1 })
        minX = x0
        minY = y0
        cellWidth = width / Double(columns)
        cellHeight = height / Double(rows)
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: [], count: columns * rows)
        builtFor = children.count
        for (child, rect) in areas { insert(child, at: placement(of: rect)) }
        for child in anywhere { insert(child, at: .everywhere) }
    }

    /// The grid's columns and rows for subviews with hit areas `areas` covering `width` x `height`:
    /// cells the size of a typical (median) subview, so that a stack of full-width rows or a row
    /// of buttons lists about one subview per cell; about one cell per subview, shaped like the
    /// area, when the subviews have no typical size or that would make far more cells than
    /// subviews.
    static func shape(width: Double, height: Double, areas: [Rect]) -> (columns: Int, rows: Int) {
        let n = Double(max(areas.count, 1))
        func clamped(_ v: Double) -> Int { Int(rounding: v, .toNearestOrAwayFromZero, clampedTo: 1...256) }
        func median(_ values: [Double]) -> Double? {
            let finite = values.filter { $0.isFinite && $0 > 0 }.sorted()
            return finite.isEmpty ? nil : finite[finite.count / 2]
        }
        if let w = median(areas.map(\.size.width)), let h = median(areas.map(\.size.height)) {
            let columns = clamped(width / w), rows = clamped(height / h)
            if Double(columns * rows) <= 4 * n { return (columns, rows) }
        }
        let columns = clamped((n * width / height).squareRoot().rounded(.up))
        return (columns, clamped((n / Double(columns)).rounded(.up)))
    }

    /// Where a subview that answers in `area` is listed.
    func placement(of area: Area) -> Placement {
        switch area {
        case .never: .none
        case .everywhere: .everywhere
        case .rect(let rect): placement(of: rect)
        }
    }

    /// Where a subview with hit area `area` (superview coordinates; `nil`: never hit) is listed.
    ///
    /// The area is widened by a tiny margin so that a point the hit-test's own arithmetic puts on
    /// the area's edge is never left in a neighbouring cell by rounding.
    func placement(of area: Rect) -> Placement {
        let (ax0, ax1, ay0, ay1) = (area.minX, area.maxX, area.minY, area.maxY)
        if ax0.isNaN || ax1.isNaN || ay0.isNaN || ay1.isNaN { return .everywhere }
        guard ax1 > ax0, ay1 > ay0 else { return .none }
        let mx = Self.margin(ax0, ax1)
        let my = Self.margin(ay0, ay1)
        let c0 = Self.cell(ax0 - mx, origin: minX, size: cellWidth, count: columns)
        let c1 = Self.cell(ax1 + mx, origin: minX, size: cellWidth, count: columns)
        let r0 = Self.cell(ay0 - my, origin: minY, size: cellHeight, count: rows)
        let r1 = Self.cell(ay1 + my, origin: minY, size: cellHeight, count: rows)
        if (c1 - c0 + 1) * (r1 - r0 + 1) > Self.maximumCellsPerView { return .everywhere }
        return .cells(columns: c0...c1, rows: r0...r1)
    }

    /// Lists `child` where `placement` says, keeping every list in z-order.
    mutating func insert(_ child: Int32, at placement: Placement) {
        switch placement {
        case .none: return
        case .everywhere: Self.insertSorted(child, into: &everywhere)
        case .cells(let cs, let rs):
            for r in rs {
                for c in cs { Self.insertSorted(child, into: &cells[r * columns + c]) }
            }
        }
    }

    /// Unlists `child` from where `placement` (as computed when it was inserted) put it.
    mutating func remove(_ child: Int32, at placement: Placement) {
        switch placement {
        case .none: return
        case .everywhere: everywhere.removeAll { $0 == child }
        case .cells(let cs, let rs):
            for r in rs {
                for c in cs { cells[r * columns + c].removeAll { $0 == child } }
            }
        }
    }

    /// A walk through the subviews whose hit area may contain a point, topmost first: the point's
    /// cell's list and the list of subviews placed everywhere, merged from their ends (the larger
    /// index is on top). Made by ``candidates(at:)``, advanced by ``next(_:)``.
    struct Candidates {
        /// The point's cell, in ``cells``.
        fileprivate let cell: Int
        /// The next places to look at in the cell's list and in ``everywhere`` (-1: none left).
        fileprivate var inCell: Int
        fileprivate var inEverywhere: Int
    }

    /// The subviews whose hit area may contain `point`, to be read topmost first with ``next(_:)``.
    /// A walk rather than a closure called with each: a closure calling back into the tree
    /// captured a copy of it on every hit-test.
    func candidates(at point: Point) -> Candidates {
        let c = Self.cell(point.x, origin: minX, size: cellWidth, count: columns)
        let r = Self.cell(point.y, origin: minY, size: cellHeight, count: rows)
        let cell = r * columns + c
        return Candidates(cell: cell, inCell: cells[cell].count - 1, inEverywhere: everywhere.count - 1)
    }

    /// The next subview of `walk`, or `nil` when none is left.
    func next(_ walk: inout Candidates) -> Int32? {
        let i = walk.inCell, j = walk.inEverywhere
        if i >= 0 && (j < 0 || cells[walk.cell][i] > everywhere[j]) {
            walk.inCell = i - 1
            return cells[walk.cell][i]
        }
        guard j >= 0 else { return nil }
        walk.inEverywhere = j - 1
        return everywhere[j]
    }

    /// The cell of coordinate `v`, with everything outside clamped onto the first or last cell.
    private static func cell(_ v: Double, origin: Double, size: Double, count: Int) -> Int {
        let t = ((v - origin) / size).rounded(.down)
        if !(t > 0) { return 0 }
        if t >= Double(count - 1) { return count - 1 }
        return Int(t)
    }

    private static func margin(_ a: Double, _ b: Double) -> Double {
        let scale = max(abs(a).isFinite ? abs(a) : 0, abs(b).isFinite ? abs(b) : 0)
        return (scale + 1) * 1e-9
    }

    private static func insertSorted(_ child: Int32, into list: inout [Int32]) {
        if let last = list.last, last >= child {
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if list[mid] < child { lo = mid + 1 } else { hi = mid }
            }
            if lo < list.count && list[lo] == child { return }
            list.insert(child, at: lo)
        } else {
            list.append(child)
        }
    }
}
