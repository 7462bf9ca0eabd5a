extension Topic {
    /// A shell's completions for a comma-separated list of topics typed up to `prefix`
    /// (`hits,ac` gives `hits,actions`): each topic not yet listed that begins with the last item,
    /// written after the items before it.
    public static func listCompletions(_ prefix: String) -> [String] {
        let items = prefix.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let listed = items.dropLast()
        let typed = items.last ?? ""
        let head = listed.map { $0 + "," }.joined()
        return allCases.map(\.rawValue).filter { $0.hasPrefix(typed) && !listed.contains($0) }.map { head + $0 }
    }
}
