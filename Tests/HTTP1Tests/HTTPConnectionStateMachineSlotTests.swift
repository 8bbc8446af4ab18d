import Testing

@testable import HTTP1
import Sockets

/// The request deadline and what makes a connection the one to close when the server is full.
struct HTTPConnectionStateMachineSlotTests {
    typealias Machine = HTTPConnectionStateMachine
    let timeouts = HTTPServer.Configuration.Timeouts(
        headerRead: .seconds(10), bodyRead: .seconds(30), request: .seconds(40), idleKeepAlive: .seconds(60),
        write: .seconds(20))
    let start = LoopInstant.now

    @Test func readingBody_IsDropped_AtRequestDeadline_WhileBytesKeepTrickling() {
        var machine = Machine(timeouts: Machine.Timeouts(timeouts), now: start)
        machine.bytesReceived(now: start + .seconds(1))
        #expect(machine.headReceived(expectsContinue: false, now: start + .seconds(2)) == .none)
        for second in stride(from: 4, through: 40, by: 4) {
            machine.bytesReceived(now: start + .seconds(second))
            #expect(machine.timeout(now: start + .seconds(second)) == .none)
        }
        #expect(machine.phaseDeadline == start + .seconds(41))
        #expect(machine.timeout(now: start + .seconds(41)) == .close)
    }

    @Test func readingHead_DeadlineIsTheRequestDeadline_WhenThatComesFirst() {
        let short = HTTPServer.Configuration.Timeouts(headerRead: .seconds(10), request: .seconds(3))
        var machine = Machine(timeouts: Machine.Timeouts(short), now: start)
        machine.bytesReceived(now: start + .seconds(1))
        #expect(machine.requestDeadline == start + .seconds(4))
        #expect(machine.phaseDeadline == start + .seconds(4))
        #expect(machine.timeout(now: start + .seconds(4)) == .sendErrorAndClose(status: 408))
    }

    @Test func nextRequest_GetsFreshRequestDeadline_FromItsFirstByte() {
        var machine = Machine(timeouts: Machine.Timeouts(timeouts), now: start)
        machine.bytesReceived(now: start)
        machine.requestReceived(keepAlive: true)
        #expect(machine.requestDeadline == nil)
        #expect(machine.responseSent(now: start + .seconds(1)) == .readNextRequest)
        machine.bytesReceived(now: start + .seconds(50))
        #expect(machine.requestDeadline == start + .seconds(90))
    }

    @Test func isIdle_BetweenRequestsOnly_SinceTheLastResponse() {
        var machine = Machine(timeouts: Machine.Timeouts(timeouts), now: start)
        #expect(machine.isIdle)
        #expect(machine.idleSince == start)
        machine.bytesReceived(now: start + .seconds(1))
        #expect(!machine.isIdle)
        machine.requestReceived(keepAlive: true)
        #expect(!machine.isIdle)
        _ = machine.responseSent(now: start + .seconds(2))
        #expect(machine.isIdle)
        #expect(machine.idleSince == start + .seconds(2))
        machine.writeBlocked(now: start + .seconds(2))
        #expect(!machine.isIdle)
    }

    @Test func streamStarted_MarksStreaming_UntilTheStreamEnds() {
        var machine = Machine(timeouts: Machine.Timeouts(timeouts), now: start)
        machine.streamStarted()
        #expect(!machine.isStreaming)
        machine.bytesReceived(now: start)
        machine.requestReceived(keepAlive: true)
        machine.streamStarted()
        #expect(machine.isStreaming)
        #expect(!machine.isIdle)
        _ = machine.responseSent(now: start + .seconds(5))
        #expect(!machine.isStreaming)
    }

    @Test func tracker_AdmitsIntoReserve_PastMaximum_ThenRefuses() {
        let tracker = ConnectionTracker(maximum: 2, reserve: 1)
        let admissions = (0..<4).map { _ in tracker.admit() }
        #expect(admissions == [.normal, .normal, .reserve, .refused])
        tracker.release()
        #expect(tracker.admit() == .reserve)
        tracker.release()
        tracker.release()
        #expect(tracker.admit() == .normal)
    }
}
