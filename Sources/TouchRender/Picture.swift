import TouchCore

/// A picture drawn, with what drawing it took.
public struct Picture: Hashable, Sendable {
    /// The SVG document.
    public let svg: String
    /// What was drawn and left out, and the work it took.
    public let statistics: RenderStatistics
}

/// What a picture drew and left out within its ``RenderBudget``, and the work it took.
public struct RenderStatistics: Hashable, Sendable {
    /// Views drawn.
    public var views = 0
    /// Views drawn with a label.
    public var labelledViews = 0
    /// Views drawn without a label: past the budget of labelled views or of overlap tests.
    public var unlabelledViews = 0
    /// Overlap tests made to place labels and hit-test reasons.
    public var labelOverlapTests = 0
    /// Touch paths drawn.
    public var touches = 0
    /// Touch paths left out (the oldest).
    public var touchesLeftOut = 0
    /// Touch samples drawn, over all paths.
    public var touchSamples = 0
    /// 1 when every sample is drawn; n when each path keeps only every n-th (and its last).
    public var touchSampleStride = 1
    /// Heatmap cells drawn.
    public var heatCells = 0
    /// The picture's size, in bytes of UTF-8.
    public var bytes = 0

    public init() {}
}

/// Why a picture cannot be drawn.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownWindow(ResponderID, windows: [ResponderID])
    /// The picture would be larger than its budget (``RenderBudget/bytes``).
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .unknownWindow(let id, let windows):
            "\"\(id)\" is not a window; windows: \(windows.map(\.rawValue).joined(separator: ", "))"
        case .tooLarge(let limit):
            "the picture would be larger than \(limit) bytes of SVG, the most a picture may take; "
                + "leave out hidden views or draw fewer touches"
        }
    }
}
