import TouchCore

/// How a picture is drawn.
public struct RenderOptions: Hashable, Sendable {
    /// Output pixels per window point (the SVG's `width` and `height`; its `viewBox` stays in
    /// points). One outside `Limits.pictureScale` counts as 1.
    public var scale: Double
    /// Space around the window, in points. One outside `Limits.length` counts as 24.
    public var margin: Double
    /// The labels' font size, in points; `nil` (or one that is not a positive length in
    /// `Limits.length`): from the window's size.
    public var fontSize: Double?
    /// Draw the legend below the window.
    public var showsLegend: Bool
    /// Draw hidden views (and views inside hidden ones), dashed.
    public var showsHiddenViews: Bool
    /// The side of a heatmap cell, in points (see ``Heatmap/cellSize``).
    public var heatmapCellSize: Double
    /// The picture's title; `nil`: the window's id and size.
    public var title: String?
    /// How much a picture may draw.
    public var budget: RenderBudget

    public init(
        scale: Double = 1, margin: Double = RenderOptions.standardMargin, fontSize: Double? = nil, showsLegend: Bool = true,
        showsHiddenViews: Bool = true, heatmapCellSize: Double = Heatmap.defaultCellSize, title: String? = nil,
        budget: RenderBudget = RenderBudget()
    ) {
        self.scale = scale
        self.margin = margin
        self.fontSize = fontSize
        self.showsLegend = showsLegend
        self.showsHiddenViews = showsHiddenViews
        self.heatmapCellSize = heatmapCellSize
        self.title = title
        self.budget = budget
    }

    /// The margin around the window, in points, unless another is given.
    public static let standardMargin = 24.0
}

/// How much one picture may draw: the bounds on its work and its size.
///
/// A picture of a large tree or a long recording stays readable and cheap by leaving things out
/// in a documented way, said in its legend and in `data-` attributes of its `<svg>` element:
///
/// - views past ``labelledViews`` are drawn without a label (`data-unlabelled-views`): the
///   outermost views keep theirs (the smallest depth first, then the lowest in z-order); every
///   view keeps its frame, its hit area and its tooltip (labels, badges and hit-test answers
///   never overlap: one with no free place is left out and counted too, see `LabelPlacement`);
/// - placing labels makes at most ``labelOverlapTests`` overlap tests; labels still to be placed
///   when they are spent are left out too;
/// - only the newest ``touches`` touch paths are drawn (`data-touches-left-out`);
/// - when the paths drawn hold more than ``touchSamples`` samples, each keeps only every n-th
///   (and its first and last), n the smallest that brings the total within the budget
///   (`data-touch-sample-stride`);
/// - a heatmap has at most ``Heatmap/maximumCellsPerSide`` cells across and down;
/// - a picture larger than ``bytes`` of SVG is refused (``RenderError/tooLarge(limit:)``): nothing
///   past the limit is written.
///
/// A negative budget counts as 0 (nothing of that kind is drawn).
public struct RenderBudget: Hashable, Sendable {
    /// The most views drawn with a label.
    public var labelledViews: Int
    /// The most overlap tests made to place labels and hit-test reasons.
    public var labelOverlapTests: Int
    /// The most touch paths drawn.
    public var touches: Int
    /// The most touch samples drawn, over all paths (plus each path's last).
    public var touchSamples: Int
    /// The largest picture, in bytes of SVG.
    public var bytes: Int

    public init(
        labelledViews: Int = 1_000, labelOverlapTests: Int = 2_000_000, touches: Int = 1_000, touchSamples: Int = 100_000,
        bytes: Int = 32 << 20
    ) {
        self.labelledViews = labelledViews
        self.labelOverlapTests = labelOverlapTests
        self.touches = touches
        self.touchSamples = touchSamples
        self.bytes = bytes
    }
}
