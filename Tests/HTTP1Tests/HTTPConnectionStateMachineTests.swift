import Testing

@testable import HTTP1
import Sockets

struct HTTPConnectionStateMachineTests {
    typealias Machine = HTTPConnectionStateMachine
    let timeouts = HTTPServer.Configuration.Timeouts(
        headerRead: .seconds(10), bodyRead: .seconds(30), idleKeepAlive: .seconds(60), write: .seconds(20))
    let start = LoopInstant.now

    func makeMachine() -> Machine { Machine(timeouts: Machine.Timeouts(timeouts), now: start) }

    /// A machine whose first request arrived at `start` and is being answered.
    func makeRespondingMachine(keepAlive: Bool = true) -> Machine {
        var machine = makeMachine()
        machine.bytesReceived(now: start)
        machine.requestReceived(keepAlive: keepAlive)
        return machine
    }

    @Test func newConnection_ClosesWithoutAnswer_WhenNoByteArrivesWithinHeaderTimeout() {
        var machine = makeMachine()
        #expect(machine.timeout(now: start + .seconds(9)) == .none)
        #expect(machine.timeout(now: start + .seconds(10)) == .close)
        #expect(machine.state == .closed)
    }

    @Test func readingHead_Answers408_WhenHeadIsIncompleteAtHeaderTimeout() {
        var machine = makeMachine()
        machine.bytesReceived(now: start + .seconds(1))
        #expect(machine.state == .readingHead)
        #expect(machine.timeout(now: start + .seconds(10)) == .sendErrorAndClose(status: 408))
        #expect(machine.state == .closing)
        #expect(machine.responseSent(now: start + .seconds(10)) == .closeAfterFlush)
    }

    @Test func readingHead_KeepsDeadline_WhenBytesTrickleIn() {
        var machine = makeMachine()
        for second in 1...9 { machine.bytesReceived(now: start + .seconds(second)) }
        #expect(machine.phaseDeadline == start + .seconds(10))
    }

    @Test func headReceived_AsksForContinue_WhenRequestExpectsIt() {
        var machine = makeMachine()
        machine.bytesReceived(now: start)
        #expect(machine.headReceived(expectsContinue: true, now: start + .seconds(1)) == .sendContinue)
        #expect(machine.state == .readingBody)
        #expect(machine.headReceived(expectsContinue: true, now: start + .seconds(2)) == .none)
    }

    @Test func readingBody_ExtendsDeadline_WhileBytesArrive_AndDropsConnectionWhenStalled() {
        var machine = makeMachine()
        machine.bytesReceived(now: start)
        #expect(machine.headReceived(expectsContinue: false, now: start) == .none)
        machine.bytesReceived(now: start + .seconds(25))
        #expect(machine.timeout(now: start + .seconds(40)) == .none)
        #expect(machine.timeout(now: start + .seconds(55)) == .close)
    }

    @Test func responding_HasNoPhaseDeadline_WhileHandlerWorks() {
        var machine = makeRespondingMachine()
        #expect(machine.deadline == nil)
        #expect(machine.timeout(now: start + .seconds(3_600)) == .none)
    }

    @Test func responseSent_WaitsForNextRequestWithIdleTimeout_WhenKeepAlive() {
        var machine = makeRespondingMachine()
        #expect(machine.responseSent(now: start + .seconds(1)) == .readNextRequest)
        #expect(machine.state == .waitingForRequest(first: false))
        #expect(machine.timeout(now: start + .seconds(60)) == .none)
        #expect(machine.timeout(now: start + .seconds(61)) == .close)
    }

    @Test func nextRequest_GetsFreshHeaderDeadline_FromItsFirstByte() {
        var machine = makeRespondingMachine()
        _ = machine.responseSent(now: start)
        machine.bytesReceived(now: start + .seconds(30))
        #expect(machine.phaseDeadline == start + .seconds(40))
    }

    @Test func responseSent_ClosesAfterFlush_WhenRequestAskedToClose() {
        var machine = makeRespondingMachine(keepAlive: false)
        #expect(!machine.keepAlive)
        #expect(machine.responseSent(now: start) == .closeAfterFlush)
    }

    @Test func blockedWrite_ClosesConnection_WhenNoProgressWithinWriteTimeout() {
        var machine = makeRespondingMachine()
        machine.writeBlocked(now: start)
        machine.writeBlocked(now: start + .seconds(10))
        #expect(machine.timeout(now: start + .seconds(29)) == .none)
        #expect(machine.timeout(now: start + .seconds(30)) == .close)
    }

    @Test func drainedWrite_ClearsWriteDeadline() {
        var machine = makeRespondingMachine()
        machine.writeBlocked(now: start)
        machine.writeDrained()
        #expect(machine.writeDeadline == nil)
        #expect(machine.timeout(now: start + .seconds(100)) == .none)
    }

    @Test func shutdown_ClosesAtOnce_WhenIdle() {
        var machine = makeMachine()
        #expect(machine.shutdown() == .close)
    }

    @Test func shutdown_FinishesRequestThenCloses_WhenResponding() {
        var machine = makeRespondingMachine()
        #expect(machine.shutdown() == .none)
        #expect(!machine.keepAlive)
        #expect(machine.responseSent(now: start) == .closeAfterFlush)
    }

    @Test func shutdown_RefusesKeepAlive_ForRequestStillArriving() {
        var machine = makeMachine()
        machine.bytesReceived(now: start)
        #expect(machine.shutdown() == .none)
        machine.requestReceived(keepAlive: true)
        #expect(!machine.keepAlive)
    }

    @Test func parseFailed_AnswersStatusAndCloses_OnlyOnce() {
        var machine = makeMachine()
        machine.bytesReceived(now: start)
        #expect(machine.parseFailed(status: 431) == .sendErrorAndClose(status: 431))
        #expect(machine.parseFailed(status: 400) == .none)
        #expect(machine.responseSent(now: start) == .closeAfterFlush)
    }

    @Test func peerClosed_ClosesOnce_AndIgnoresLaterEvents() {
        var machine = makeMachine()
        #expect(machine.peerClosed() == .close)
        #expect(machine.peerClosed() == .none)
        #expect(machine.timeout(now: start + .seconds(100)) == .none)
        #expect(machine.shutdown() == .none)
    }
}
