import Foundation
@testable import HTTPCaching
import Synchronization
import Testing

struct ThreadMemoTests {
    /// Counts the values made, so a test can tell a kept value from a new one.
    final class Maker: Sendable {
        private let made = Mutex(0)
        var count: Int { made.withLock { $0 } }

        func make(_ key: String) -> Int {
            made.withLock { $0 += 1 }
            return key.count
        }
    }

    /// Runs `body` on a thread of its own and waits for it to end.
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        done.wait()
    }

    @Test func value_KeepsEachThreadsOwnLastKey_WhenAnotherThreadReadsAnother() {
        let memo = ThreadMemo<String, Int>()
        let maker = Maker()
        #expect(memo.value(for: "one", make: maker.make) == 3)
        Self.onAnotherThread {
            #expect(memo.value(for: "three", make: maker.make) == 5)
            #expect(memo.value(for: "three", make: maker.make) == 5)
        }
        #expect(maker.count == 2)
        // This thread still keeps "one": the other thread's "three" replaced only its own.
        #expect(memo.value(for: "one", make: maker.make) == 3)
        #expect(maker.count == 2)
        #expect(memo.value(for: "seven", make: maker.make) == 5)
        #expect(maker.count == 3)
    }
}
