/// The first `capacity` of a stream of elements in an order, kept in a heap whose root is the
/// last of those kept so far.
///
/// Each element offered is compared with the root: one comparison for most elements of a
/// large stream, and O(log *k*) for those that take the root's place. The elements come out
/// in order with ``sorted()``.
struct BoundedSelection<Element> {
    /// The most elements kept.
    let capacity: Int
    /// Whether the first element goes before the second.
    private let precedes: (Element, Element) -> Bool
    /// A heap on `precedes`, reversed: every element goes before or ties with its parent.
    private var heap: [Element] = []

    /// - Parameters:
    ///   - capacity: The most elements kept; at least zero.
    ///   - precedes: A strict total order on the elements.
    init(capacity: Int, precedes: @escaping (Element, Element) -> Bool) {
        precondition(capacity >= 0, "a selection cannot keep a negative number of elements")
        self.capacity = capacity
        self.precedes = precedes
        heap.reserveCapacity(min(capacity, 4_096))
    }

    /// The last of the elements kept once `capacity` of them are: what an element offered
    /// must go before to be kept. `nil` while there is room.
    var lastWhenFull: Element? {
        heap.count == capacity ? heap.first : nil
    }

    /// Keeps `element` when it is among the first `capacity` offered so far.
    mutating func offer(_ element: Element) {
        if heap.count < capacity {
            heap.append(element)
            siftUp(heap.count - 1)
        } else if let last = heap.first, precedes(element, last) {
            heap[0] = element
            siftDown(0)
        }
    }

    /// The elements kept, in order.
    func sorted() -> [Element] {
        heap.sorted(by: precedes)
    }

    // MARK: - Internals

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            var later = left
            if right < heap.count, precedes(heap[left], heap[right]) { later = right }
            guard precedes(heap[parent], heap[later]) else { return }
            heap.swapAt(parent, later)
            parent = later
        }
    }
}
