// A to-do app's data layer as SwiftData apps write it: a model, a `@ModelActor` that does the
// writing in the background and hands identifiers across, and the main context reading with
// `#Predicate` and `SortDescriptor`.

import Foundation
import Logbook

@Model
final class TodoItem {
    var title: String
    var isCompleted: Bool = false
    var createdAt: Date = Date.now
    var priority: Int = 0
    var tags: [String] = []

    init(title: String, priority: Int = 0, tags: [String] = []) {
        self.title = title
        self.priority = priority
        self.tags = tags
    }
}

@ModelActor
actor TodoDataHandler {
    @discardableResult
    func add(_ title: String, priority: Int = 0, tags: [String] = []) throws -> PersistentIdentifier {
        let item = TodoItem(title: title, priority: priority, tags: tags)
        modelContext.insert(item)
        try modelContext.save()
        return item.persistentModelID
    }

    func toggle(_ id: PersistentIdentifier) throws {
        guard let item = self[id, as: TodoItem.self] else { return }
        item.isCompleted.toggle()
        try modelContext.save()
    }

    func remove(_ id: PersistentIdentifier) throws {
        guard let item = self[id, as: TodoItem.self] else { return }
        modelContext.delete(item)
        try modelContext.save()
    }

    func removeCompleted() throws {
        try modelContext.delete(model: TodoItem.self, where: #Predicate { $0.isCompleted })
        try modelContext.save()
    }

    func outstandingTitles() throws -> [String] {
        let descriptor = FetchDescriptor<TodoItem>(
            predicate: #Predicate { !$0.isCompleted },
            sortBy: [SortDescriptor(\.priority, order: .reverse), SortDescriptor(\.createdAt)]
        )
        return try modelContext.fetch(descriptor).map(\.title)
    }
}
