/// A line longer than the splitter takes: reported, never cut.
public struct LineTooLongError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The longest line accepted, in bytes (without its newline).
    public var maximumLineLength: Int

    public init(maximumLineLength: Int) { self.maximumLineLength = maximumLineLength }

    public var description: String { "a line is longer than \(maximumLineLength) bytes" }
}

/// Splits a byte stream into newline-delimited lines, the protocol's framing in both directions:
/// chunks go in as they arrive (however the stream was cut), complete lines come out.
///
/// A line is the bytes before a `\n` (which is not part of it). A line longer than
/// ``maximumLineLength`` is never cut or passed on: it is reported as soon as the bytes buffered
/// for it exceed the bound (so at most the bound plus one chunk is ever held), and the stream is
/// then unusable: every later call reports it again.
public struct LineSplitter: Sendable {
    /// The longest line accepted, in bytes (without its newline).
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    /// Where the first line not yet returned starts in `buffer`.
    private var head = 0
    /// How far `buffer` is known to hold no newline.
    private var searched = 0
    private var tooLong = false

    public init(maximumLineLength: Int) {
        self.maximumLineLength = max(maximumLineLength, 0)
    }

    /// Bytes received and not yet returned as part of a line.
    public var bufferedByteCount: Int { buffer.count - head }

    /// Adds the next bytes of the stream.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        if head > 0 {
            buffer.removeFirst(head)
            searched -= head
            head = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// The next complete line, or `nil` when the bytes so far end inside a line.
    /// - Throws: ``LineTooLongError`` when the next line is longer than ``maximumLineLength``
    ///   (and on every call after that).
    public mutating func nextLine() throws(LineTooLongError) -> [UInt8]? {
        guard !tooLong else { throw LineTooLongError(maximumLineLength: maximumLineLength) }
        guard let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) else {
            searched = buffer.count
            if buffer.count - head > maximumLineLength { return try refuse() }
            return nil
        }
        if newline - head > maximumLineLength { return try refuse() }
        let line = Array(buffer[head..<newline])
        head = newline + 1
        searched = head
        return line
    }

    /// At the end of the stream, the bytes after the last newline as its last line (a writer that
    /// closed without a final newline), once; nil when there are none, or the stream was refused.
    /// Call it only after ``nextLine()`` gave every complete line.
    public mutating func finalLine() -> [UInt8]? {
        guard !tooLong, head < buffer.count else { return nil }
        let rest = Array(buffer[head...])
        buffer = []
        head = 0
        searched = 0
        return rest
    }

    private mutating func refuse() throws(LineTooLongError) -> [UInt8]? {
        tooLong = true
        buffer = []
        head = 0
        searched = 0
        throw LineTooLongError(maximumLineLength: maximumLineLength)
    }
}
