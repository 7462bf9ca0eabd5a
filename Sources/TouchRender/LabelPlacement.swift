import TouchCore

/// Where the writing of a picture goes (views' labels, their badges, a hit-test's answers), placed
/// before anything is drawn so that no two overlap and the legend can say what was left out.
///
/// Every box is placed by ``place(_:candidates:near:)``, which keeps a box only when
/// ``PlacedBoxes/overlaps(_:except:)`` (an exact test against every box placed before) says it
/// overlaps none, and then inserts it: so no two placed boxes overlap, whatever the layout. A box
/// for which no place is free (or once the budget of overlap tests is spent, when every question
/// answers "overlaps") is not placed: its text is left out and counted.
struct LabelPlacement {
    /// One placed label: the figure it names, its box, and the point its leader line goes to when
    /// it could not be placed beside its view.
    struct Label {
        var figure: Int
        var box: Rect
        var notes: String
        var leader: Point?
    }

    /// One view's badges, placed as one box (drawn from its right edge leftwards).
    struct Badges {
        var box: Rect
        var leader: Point?
    }

    /// One hit-test answer written on the picture.
    struct Reason {
        var visit: Int
        var box: Rect
        var text: String
    }

    /// The labels, in z-order of their views.
    var labels: [Label] = []
    /// Each labelled view's box (the first, should an id repeat).
    var boxes: [ResponderID: Rect] = [:]
    /// The badges of each figure that has some and got a place, by figure index.
    var badges: [Int: Badges] = [:]
    /// The hit-test answers placed, in the order of the visits.
    var reasons: [Reason] = []
    /// The boxes placed so far, indexed.
    var placed: PlacedBoxes
    /// Where boxes may go: the picture's drawing area.
    let area: Rect
    /// Views drawn without a label: past the budget of labels, or with no free place for one.
    var unlabelled = 0
    /// Views with badges drawn without them, for want of a free place.
    var badgesLeftOut = 0
    /// Hit-test answers not written, for want of a free place.
    var reasonsLeftOut = 0

    /// A placement over `area`, indexed in cells of about a label's size.
    init(area: Rect, cellWidth: Double, cellHeight: Double, testBudget: Int) {
        self.area = area
        placed = PlacedBoxes(cellWidth: cellWidth, cellHeight: cellHeight, testBudget: testBudget)
    }

    /// How many rings of places around the anchor are tried once the candidates are taken.
    static let searchRings = 6

    /// Places a box of `size`: at the first of `candidates` (box origins, each moved inside the
    /// area) that overlaps nothing placed, else (with an `anchor`) at the first free place found in
    /// rings around it, with a leader line to it. Returns the box placed and its leader's end, or
    /// nil when no place is free (nothing is placed then).
    mutating func place(_ size: Size, candidates: [Point], near anchor: Point?) -> (box: Rect, leader: Point?)? {
        guard size.width <= area.width, size.height <= area.height else { return nil }
        for origin in candidates {
            let box = inside(Rect(origin: origin, size: size))
            if !placed.overlaps(box) {
                placed.insert(box)
                return (box, nil)
            }
            if placed.isExhausted { return nil }
        }
        guard let anchor else { return nil }
        let stepY = size.height + 2
        let stepX = size.width / 2 + 2
        for ring in 1...Self.searchRings {
            let k = Double(ring)
            let around = [
                Point(x: anchor.x, y: anchor.y + k * stepY), Point(x: anchor.x, y: anchor.y - k * stepY - size.height),
                Point(x: anchor.x + k * stepX, y: anchor.y), Point(x: anchor.x - k * stepX - size.width, y: anchor.y),
            ]
            for origin in around {
                let box = inside(Rect(origin: origin, size: size))
                if !placed.overlaps(box) {
                    placed.insert(box)
                    return (box, anchor)
                }
                if placed.isExhausted { return nil }
            }
        }
        return nil
    }

    /// `box` moved the least to lie inside the area (it fits: ``place(_:candidates:near:)`` checks).
    private func inside(_ box: Rect) -> Rect {
        let x = min(max(box.minX, area.minX), area.maxX - box.width)
        let y = min(max(box.minY, area.minY), area.maxY - box.height)
        return Rect(x: x, y: y, width: box.width, height: box.height)
    }
}
