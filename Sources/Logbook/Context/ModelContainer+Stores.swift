extension ModelContainer {
    /// The container of one configuration's store: for a container of several configurations,
    /// the store that holds that configuration's entities.
    ///
    /// What has one answer per store is read there: its history
    /// (``ModelContext/fetchHistory(_:)``), its change feed (``changes(after:)``), its
    /// ``recoveryReport``, and its checkpoint. It shares the store, its objects and its saves
    /// with this container, and lives as long as this container.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: schema, configurations: user, catalogue)
    /// let userStore = try #require(container.container(forConfigurationNamed: "User"))
    /// let history = try ModelContext(userStore).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    /// ```
    ///
    /// - Parameter name: A configuration's ``ModelConfiguration/name``.
    /// - Returns: The container of that configuration's store; this container when it has one
    ///   configuration and it has that name; `nil` when no configuration has the name.
    public func container(forConfigurationNamed name: String) -> ModelContainer? {
        guard !parts.isEmpty else { return configurations.first?.name == name ? self : nil }
        return parts.first { $0.configurations.first?.name == name }
    }
}
