import Foundation
import Gateway
import Testing

struct ShutdownSignalsTests {
    @Test func first_ReturnsTheSignal_OnceItArrives() async {
        let signals = ShutdownSignals(signals: [SIGUSR2])
        kill(getpid(), SIGUSR2)
        #expect(await signals.first() == SIGUSR2)
        #expect(await signals.first() == SIGUSR2)
    }
}
