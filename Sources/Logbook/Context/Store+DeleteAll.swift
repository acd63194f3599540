extension Store {
    /// Deletes every live object of every entity, in one batch of delete events.
    ///
    /// No delete rule is applied and no relationship is unlinked: with every object gone there
    /// is no object left to nullify or cascade to, and replaying the deletes empties every
    /// table as applying them does. The schema record stays, so the store keeps its schema.
    ///
    /// - Returns: The commit, with no sequences when the store was already empty.
    /// - Throws: ``LogbookError`` when the append fails; nothing is kept then.
    /// The batch records no author, and its deletes no preserved values.
    func deleteAllObjects() throws -> Commit {
        try commit(transaction: BatchTransaction(timestamp: clock(), author: nil)) { projection, _, _, batch in
            for table in projection.tables {
                let name = table.entity.name
                for (id, _) in table.identifiersInOrder() {
                    batch.events.append(.delete(entity: name, id: id))
                }
            }
        }
    }
}
