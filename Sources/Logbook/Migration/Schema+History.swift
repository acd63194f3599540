extension Schema {
    /// Every name each attribute and relationship had in earlier schemas, following
    /// `originalName` back one version at a time.
    ///
    /// With `start_date` in V1, `startDay` in V2 (`originalName: "start_date"`) and `startDate`
    /// in V3 (`originalName: "startDay"`), V3's `startDate` was once `startDay` and `start_date`.
    ///
    /// - Parameter history: The earlier schemas, oldest first.
    /// - Returns: By entity name, by current property name: the former names, newest first.
    func formerNames(through history: [Schema]) -> [String: [String: [String]]] {
        var result: [String: [String: [String]]] = [:]
        for entity in entities {
            var names: [String: [String]] = [:]
            let properties =
                entity.attributes.map { ($0.name, $0.originalName) }
                + entity.relationships.map { ($0.name, $0.originalName) }
            for (name, original) in properties {
                var former: [String] = []
                var current = original ?? name
                if current != name { former.append(current) }
                for earlier in history.reversed() {
                    guard let earlierEntity = earlier.entity(named: entity.name) else { break }
                    let match =
                        earlierEntity.attributes.first { $0.name == current }.map { $0.originalName }
                        ?? earlierEntity.relationships.first { $0.name == current }.map { $0.originalName }
                    guard let earlierOriginal = match ?? nil, earlierOriginal != current else { continue }
                    former.append(earlierOriginal)
                    current = earlierOriginal
                }
                if !former.isEmpty { names[name] = former }
            }
            if !names.isEmpty { result[entity.name] = names }
        }
        return result
    }
}
