/// A 4-ary min-heap: `popMin()` returns the smallest element.
///
/// Four children per node halve the depth of a binary heap, and elements move into a hole rather
/// than being swapped: the scheduler pops and inserts on every command's start and end.
struct PriorityHeap<Element: Comparable> {
    private static var arity: Int { 4 }

    private var storage: [Element] = []

    /// The number of elements.
    var count: Int { storage.count }

    /// Whether the heap is empty.
    var isEmpty: Bool { storage.isEmpty }

    /// The smallest element, without removing it.
    var min: Element? { storage.first }

    /// Every element, in no useful order.
    var elements: [Element] { storage }

    /// Adds an element.
    ///
    /// - Complexity: O(log *n*).
    mutating func insert(_ element: Element) {
        storage.append(element)
        storage.withUnsafeMutableBufferPointer { heap in
            var hole = heap.count - 1
            while hole > 0 {
                let parent = (hole - 1) / Self.arity
                guard element < heap[parent] else { break }
                heap[hole] = heap[parent]
                hole = parent
            }
            heap[hole] = element
        }
    }

    /// Removes and returns the smallest element.
    ///
    /// - Complexity: O(log *n*).
    mutating func popMin() -> Element? {
        guard let last = storage.popLast() else { return nil }
        guard !storage.isEmpty else { return last }
        return storage.withUnsafeMutableBufferPointer { heap in
            let smallest = heap[0]
            var hole = 0
            while true {
                let first = Self.arity * hole + 1
                guard first < heap.count else { break }
                var child = first
                for sibling in (first + 1)..<Swift.min(first + Self.arity, heap.count) where heap[sibling] < heap[child] {
                    child = sibling
                }
                guard heap[child] < last else { break }
                heap[hole] = heap[child]
                hole = child
            }
            heap[hole] = last
            return smallest
        }
    }
}

extension PriorityHeap: Sendable where Element: Sendable {}
