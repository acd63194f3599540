extension Projection {
    /// A rank for each table, such that the to-one side of a one-to-many relationship ranks
    /// above the table it refers to wherever the entities allow (an item above its trip).
    ///
    /// A context that goes away empties every relationship that points to a table of the same
    /// or a higher rank (``EntityMapping/relationshipsEmptiedOnRelease``). The relationships left
    /// all point down the ranks, so no models are left holding each other in a cycle; and since
    /// a trip's items rank above it, only the trip's list is emptied, not each item's trip.
    ///
    /// The ranks are the order in which a depth-first walk of the to-one sides finishes the
    /// tables: a table is finished after every table its to-one sides reach, except where
    /// those sides form a cycle of entities.
    var releaseRanks: [Int] {
        var ranks = Array(repeating: -1, count: tables.count)
        var visiting = Array(repeating: false, count: tables.count)
        var next = 0
        func finish(_ table: Int) {
            guard ranks[table] < 0, !visiting[table] else { return }
            visiting[table] = true
            for link in links[table] where !link.isToMany && link.destination >= 0 {
                guard let inverse = link.inverse, links[link.destination][inverse].isToMany else { continue }
                finish(link.destination)
                for subdestination in link.subdestinations { finish(subdestination.table) }
            }
            visiting[table] = false
            ranks[table] = next
            next += 1
        }
        for table in tables.indices { finish(table) }
        return ranks
    }
}
