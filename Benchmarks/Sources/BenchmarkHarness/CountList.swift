/// A list of positive counts given on the command line as `1,2,4`.
public enum CountList {
    /// Parses `text`: positive integers separated by commas, spaces allowed around them.
    ///
    /// ```swift
    /// CountList.parse("1,2,4")  // [1, 2, 4]
    /// ```
    ///
    /// - Returns: The counts in the order given, or `nil` when the text is empty, holds
    ///   something other than a positive integer, or names a count twice.
    public static func parse(_ text: String) -> [Int]? {
        var counts: [Int] = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = field.trimmingCharacters(in: " ")
            guard let count = Int(trimmed), count > 0, !counts.contains(count) else { return nil }
            counts.append(count)
        }
        return counts.isEmpty ? nil : counts
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = self
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
