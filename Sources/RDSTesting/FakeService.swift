import RDS
import Synchronization
import Testing

/// A scripted ``Service`` for repository tests: every call must have been expected.
///
/// Script answers per key and operation with ``expectGet(_:ifChangedFrom:returning:heldBy:)`` and
/// friends; each script answers one call, in order. A call nobody scripted records a test issue
/// and throws ``ServiceErrorKind/unavailable``. Every call is recorded in ``calls``. A script
/// may be held by a ``FakeGate`` so the test decides when it answers; a call whose task is
/// cancelled throws `CancellationError`.
public final class FakeService<Key: Hashable & Sendable, Value: Sendable>: Service {
    /// One call the service received.
    public enum Call: Sendable {
        /// `get`, with the validators of a conditional request.
        case get(Key, ifChangedFrom: Validators?)
        /// `save`.
        case save(Value, for: Key)
        /// `delete`.
        case delete(Key)
    }

    private struct Script<Answer: Sendable>: Sendable {
        let result: Result<Answer, ServiceError>
        let gate: FakeGate?
        let expectedValidators: Validators??
    }

    private struct State {
        var gets: [Key: [Script<ServiceResponse<Value>>]] = [:]
        var saves: [Key: [Script<WriteResult<Value>>]] = [:]
        var deletes: [Key: [Script<WriteResult<Value>>]] = [:]
        var calls: [Call] = []
    }

    private let state = Mutex(State())

    /// Creates a service that expects nothing yet.
    public init() {}

    /// Every call so far, oldest first.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The number of `get` calls for `key` so far.
    public func getCount(for key: Key) -> Int {
        calls.filter { if case .get(key, _) = $0 { true } else { false } }.count
    }

    /// The number of scripts not used yet (a finished test expects `0`).
    public var unusedScripts: Int {
        state.withLock { state in
            state.gets.values.map(\.count).reduce(0, +) + state.saves.values.map(\.count).reduce(0, +)
                + state.deletes.values.map(\.count).reduce(0, +)
        }
    }

    /// Expects one `get` of `key`.
    /// - Parameters:
    ///   - validators: When given, the call must carry exactly these (`.some(nil)`: an unconditional call).
    ///   - response: The answer.
    ///   - gate: Holds the answer until the gate opens.
    public func expectGet(
        _ key: Key, ifChangedFrom validators: Validators?? = .none, returning response: ServiceResponse<Value>,
        heldBy gate: FakeGate? = nil
    ) {
        let script = Script(result: .success(response), gate: gate, expectedValidators: validators)
        state.withLock { $0.gets[key, default: []].append(script) }
    }

    /// Expects one `get` of `key` that fails with `error`.
    public func expectGet(
        _ key: Key, ifChangedFrom validators: Validators?? = .none, throwing error: ServiceError,
        heldBy gate: FakeGate? = nil
    ) {
        let script = Script<ServiceResponse<Value>>(result: .failure(error), gate: gate, expectedValidators: validators)
        state.withLock { $0.gets[key, default: []].append(script) }
    }

    /// Expects one `save` for `key`.
    public func expectSave(
        _ key: Key, _ result: Result<WriteResult<Value>, ServiceError>, heldBy gate: FakeGate? = nil
    ) {
        state.withLock {
            $0.saves[key, default: []].append(Script(result: result, gate: gate, expectedValidators: .none))
        }
    }

    /// Expects one `delete` of `key`.
    public func expectDelete(
        _ key: Key, _ result: Result<WriteResult<Value>, ServiceError>, heldBy gate: FakeGate? = nil
    ) {
        state.withLock {
            $0.deletes[key, default: []].append(Script(result: result, gate: gate, expectedValidators: .none))
        }
    }

    /// Answers from the next `get` script for `key`.
    public func get(_ key: Key, ifChangedFrom validators: Validators?) async throws -> ServiceResponse<Value> {
        let script = state.withLock { state in
            state.calls.append(.get(key, ifChangedFrom: validators))
            return state.gets[key]?.isEmpty == false ? state.gets[key]?.removeFirst() : nil
        }
        if let script, case .some(let expected) = script.expectedValidators, expected != validators {
            Issue.record(
                "get(\(key)) expected validators \(String(describing: expected)), got \(String(describing: validators))"
            )
        }
        return try await answer(script, for: "get(\(key))")
    }

    /// Answers from the next `save` script for `key`.
    public func save(_ value: Value, for key: Key) async throws -> WriteResult<Value> {
        let script = state.withLock { state in
            state.calls.append(.save(value, for: key))
            return state.saves[key]?.isEmpty == false ? state.saves[key]?.removeFirst() : nil
        }
        return try await answer(script, for: "save(\(key))")
    }

    /// Answers from the next `delete` script for `key`.
    public func delete(_ key: Key) async throws -> WriteResult<Value> {
        let script = state.withLock { state in
            state.calls.append(.delete(key))
            return state.deletes[key]?.isEmpty == false ? state.deletes[key]?.removeFirst() : nil
        }
        return try await answer(script, for: "delete(\(key))")
    }

    private func answer<Answer>(_ script: Script<Answer>?, for call: String) async throws -> Answer {
        guard let script else {
            Issue.record("FakeService: unexpected call \(call)")
            throw ServiceError(.unavailable, "Unexpected call \(call)")
        }
        await script.gate?.pass()
        try Task.checkCancellation()
        return try script.result.get()
    }
}
