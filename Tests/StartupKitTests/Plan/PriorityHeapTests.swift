import StartupSeededRandom
import Testing

@testable import StartupKit

/// The ready queue's heap: pops come out smallest first, whatever the order of inserts and pops.
@Suite struct PriorityHeapTests {
    @Test func anEmptyHeapPopsNothing() {
        var heap = PriorityHeap<Int>()
        #expect(heap.isEmpty && heap.min == nil)
        #expect(heap.popMin() == nil)
    }

    @Test func popsReturnEveryElementInAscendingOrder() {
        for seed in UInt64(0)..<50 {
            var random = SeededGenerator(seed: seed)
            let values = (0..<Int.random(in: 1...300, using: &random)).map { _ in Int.random(in: -50...50, using: &random) }
            var heap = PriorityHeap<Int>()
            for value in values { heap.insert(value) }
            #expect(heap.count == values.count)
            var popped: [Int] = []
            while let smallest = heap.popMin() { popped.append(smallest) }
            #expect(popped == values.sorted(), "seed \(seed)")
        }
    }

    @Test func interleavedInsertsAndPopsAlwaysPopTheSmallestPresent() {
        for seed in UInt64(0)..<50 {
            var random = SeededGenerator(seed: seed)
            var heap = PriorityHeap<Int>()
            var reference: [Int] = []
            for _ in 0..<500 {
                if reference.isEmpty || Bool.random(using: &random) {
                    let value = Int.random(in: 0...1_000, using: &random)
                    heap.insert(value)
                    reference.append(value)
                } else {
                    let expected = reference.min()!
                    reference.remove(at: reference.firstIndex(of: expected)!)
                    #expect(heap.min == expected, "seed \(seed)")
                    #expect(heap.popMin() == expected, "seed \(seed)")
                }
                #expect(heap.count == reference.count)
            }
        }
    }

    @Test func readyKeysPopByPriorityThenRemainingPathThenPosition() {
        var heap = PriorityHeap<ReadyKey>()
        let keys = [
            ReadyKey(priority: 0, remainingPath: 5, position: 3),
            ReadyKey(priority: 1, remainingPath: 1, position: 4),
            ReadyKey(priority: 0, remainingPath: 9, position: 2),
            ReadyKey(priority: 0, remainingPath: 5, position: 1),
            ReadyKey(priority: -1, remainingPath: 100, position: 0),
        ]
        for key in keys { heap.insert(key) }
        var order: [Int] = []
        while let key = heap.popMin() { order.append(key.position) }
        #expect(order == [4, 2, 1, 3, 0])
    }
}
