extension StringProtocol {
    /// The text without the spaces and tabs at its start and end (line breaks are kept): how
    /// recordings, calibration files, HTTP header values and command-line lists are trimmed.
    public func trimmingSpaces() -> String {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
