/// How far a view's composed transform (its own with those of its superviews, up to its window)
/// enlarges and shrinks: the products of each transform's larger and of its smaller scale factor.
/// A rotation neither enlarges nor shrinks, so the composed transform stretches no length more
/// than ``largest`` times and none less than ``smallest`` times.
///
/// Both must stay within ``Limits/maximumComposedScale`` either way: a layout is refused, and a
/// request that adds or changes a view is, when a view would pass it.
public struct ComposedScale: Hashable, Sendable {
    /// The product of each transform's larger scale factor: the most a length is enlarged.
    public let largest: Double
    /// The product of each transform's smaller scale factor: the least a length is enlarged.
    public let smallest: Double

    /// A window's: it neither enlarges nor shrinks.
    public static let identity = ComposedScale(largest: 1, smallest: 1)

    /// What a view's composed scale must be, for messages.
    public static let expectation = "expected at most \(formatNumber(Limits.maximumComposedScale))-fold either way "
        + "(the product of the scale factors of the view's transform and its superviews')"

    private init(largest: Double, smallest: Double) {
        self.largest = largest
        self.smallest = smallest
    }

    /// The composed scale of a view with `transform` inside a view (or window) of this one.
    public func appending(_ transform: ViewTransform) -> ComposedScale {
        let (x, y) = (abs(transform.scaleX), abs(transform.scaleY))
        return ComposedScale(largest: largest * max(x, y), smallest: smallest * min(x, y))
    }

    /// Whether both products are finite and within ``Limits/maximumComposedScale`` either way
    /// (not a number is not).
    public var isWithinLimits: Bool {
        largest <= Limits.maximumComposedScale && smallest >= 1 / Limits.maximumComposedScale
    }

    /// How far past the bound the scale goes, in words (`enlarges it 1000000000-fold`); `nil`
    /// within it.
    public var excess: String? {
        if isWithinLimits { return nil }
        if !(largest <= Limits.maximumComposedScale) { return "enlarges it \(formatNumber(largest))-fold" }
        return "shrinks it \(formatNumber(1 / smallest))-fold"
    }
}
