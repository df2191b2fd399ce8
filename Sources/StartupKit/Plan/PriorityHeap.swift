/// A binary min-heap: `popMin()` returns the smallest element.
struct PriorityHeap<Element: Comparable> {
    private var storage: [Element] = []

    /// The number of elements.
    var count: Int { storage.count }

    /// Whether the heap is empty.
    var isEmpty: Bool { storage.isEmpty }

    /// The smallest element, without removing it.
    var min: Element? { storage.first }

    /// Adds an element.
    ///
    /// - Complexity: O(log *n*).
    mutating func insert(_ element: Element) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element.
    ///
    /// - Complexity: O(log *n*).
    mutating func popMin() -> Element? {
        guard !storage.isEmpty else { return nil }
        if storage.count == 1 { return storage.removeLast() }
        let smallest = storage[0]
        storage[0] = storage.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < storage.count else { break }
            let right = left + 1
            let child = right < storage.count && storage[right] < storage[left] ? right : left
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            parent = child
        }
        return smallest
    }
}
extension PriorityHeap: Sendable where Element: Sendable {}
