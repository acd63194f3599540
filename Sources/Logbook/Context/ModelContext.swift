/// The object through which an app inserts, fetches, changes, deletes and saves models.
///
/// A context belongs to one isolation domain; it keeps one object per persisted model and
/// turns a save into one atomic batch in the store's log.
///
/// In this release the type has no API yet: it exists so that the closures of a custom
/// ``MigrationStage`` can be declared. Inserting, fetching and saving come with the store.
public final class ModelContext {}
