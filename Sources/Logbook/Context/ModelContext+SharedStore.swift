/// Saves to a store that other writers share (a store kept in a database server): a save
/// built again after catching up with them must still apply.
extension ModelContext {
    /// Refuses a save whose changes or deletions name an object that is no longer in the store:
    /// another writer deleted it since this context fetched it.
    ///
    /// - Throws: ``LogbookError/Code/conflict`` naming the entity and the object.
    func checkStillStored(
        _ changes: [any PersistentModel],
        _ deletions: [ObjectIdentifier: any PersistentModel],
        in projection: Projection
    ) throws(LogbookError) {
        guard store.externalLog != nil else { return }
        for model in changes + deletions.values {
            guard let id = model.storedIdentifier else { continue }
            let mapping = mapping(of: model)
            if projection.slot(mapping.table, id) == nil {
                throw LogbookError(
                    .conflict,
                    "\(mapping.entity.name) \(id) was deleted by another writer of the store since this context read it; its changes stay pending"
                )
            }
        }
    }
}
