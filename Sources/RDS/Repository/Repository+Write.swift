extension Repository {
    /// Writes `value` to the service; on success the datastore holds the service's answer
    /// (``WriteResult/stored``, or nothing when that is `nil`) and subscribers see exactly one new
    /// state. On failure nothing changes. The key's write process state (``WriteKind/write``) goes
    /// `processing`, then `succeeded` or `failed`, each with `value`.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``ServiceError``.
    @discardableResult
    public func save(_ value: Value, for key: Key) async throws -> WriteResult<Value> {
        try await write(key, .write, element: value) { try await sendWrite(.write, element: value, for: key) }
    }

    /// Deletes the resource at the service; on success the datastore holds the service's answer
    /// (usually nothing) and subscribers see exactly one new state. On failure nothing changes.
    /// The key's delete process state (``WriteKind/delete``) goes `processing`, then `succeeded`
    /// or `failed`, each with `element`.
    /// - Parameters:
    ///   - key: The resource.
    ///   - element: What describes the request to the service (see ``Service/delete(_:carrying:)``), if anything.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``ServiceError``.
    @discardableResult
    public func delete(_ key: Key, element: Value? = nil) async throws -> WriteResult<Value> {
        try await write(key, .delete, element: element) { try await sendWrite(.delete, element: element, for: key) }
    }

    /// The `kind` process state of `key`: `.initial` until a write of that kind starts (or once
    /// it is forgotten, see ``WriteStateRegistry``).
    public func writeState(_ kind: WriteKind, of key: Key) -> WriteState<Value> {
        store.writes.current(kind, of: key)
    }

    /// The write and delete process states of `key`: those that are not `.initial` first, then
    /// each change. Dropping the stream releases the subscription.
    public func writeEvents(of key: Key) -> AsyncStream<WriteEvent<Value>> {
        store.writes.subscribe(to: key)
    }

    /// Removes `key` from the datastore (not from the service); subscribers see `.initialized`.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``DatastoreError``.
    public func purge(_ key: Key) async throws {
        do {
            try await store.datastore.delete(key)
        } catch {
            throw RepositoryError(.writeFailed, "Could not purge the resource", details: details(key), inner: error)
        }
        store.broadcasters.publish(.initialized, for: key)
    }

    /// Removes every key from the datastore; every subscriber sees `.initialized`.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``DatastoreError``.
    public func purgeAll() async throws {
        do {
            try await store.datastore.deleteAll()
        } catch {
            throw RepositoryError(
                .writeFailed, "Could not purge the repository", details: ["repository": name], inner: error)
        }
        store.broadcasters.publishToAll(.initialized)
    }

    private func write(
        _ key: Key, _ kind: WriteKind, element: Value?, _ call: () async throws -> WriteResult<Value>
    ) async throws -> WriteResult<Value> {
        beginWrite(kind, element: element, for: key)
        let result: WriteResult<Value>
        do {
            result = try await call()
        } catch {
            throw failWrite(kind, element: element, for: key, error: error)
        }
        await finishWrite(kind, element: element, for: key, result: result)
        return result
    }

    /// Publishes that a `kind` write of `element` to `key` has started (`processing`); `queued`
    /// when it waits in a durable outbox. The steps ``beginWrite(_:element:for:queued:)``,
    /// ``sendWrite(_:element:for:)``, then ``finishWrite(_:element:for:result:)`` or
    /// ``failWrite(_:element:for:error:)`` are what ``save(_:for:)`` and ``delete(_:element:)`` do;
    /// an outbox calls them one by one to decide between them.
    public func beginWrite(_ kind: WriteKind, element: Value?, for key: Key, queued: Bool = false) {
        store.writes.publish(.processing(element: element, since: store.clock.now, queued: queued), kind, for: key)
    }

    /// Sends a `kind` write of `element` to the service; changes nothing here.
    /// - Throws: the ``ServiceError``, unwrapped.
    public func sendWrite(_ kind: WriteKind, element: Value?, for key: Key) async throws -> WriteResult<Value> {
        switch kind {
        case .write:
            guard let element else { throw ServiceError(.rejected, "A save needs a value", details: details(key)) }
            return try await service.save(element, for: key)
        case .delete:
            return try await service.delete(key, carrying: element)
        }
    }

    /// Applies a successful write: the datastore keeps ``WriteResult/stored`` (or drops the key),
    /// subscribers see exactly one read state, and the write state becomes `succeeded`.
    public func finishWrite(_ kind: WriteKind, element: Value?, for key: Key, result: WriteResult<Value>) async {
        await store.flights.supersede(key)
        let now = store.clock.now
        if let stored = result.stored, await keep(stored, for: key, at: now, dropOnFailure: true) != nil {
            store.broadcasters.publish(.loaded(stored.value, origin: .write, at: now), for: key)
        } else {
            if result.stored == nil { await dropStored(key) }
            store.broadcasters.publish(.initialized, for: key)
        }
        store.writes.publish(.succeeded(element: element, reply: result.reply, at: now), kind, for: key)
    }

    /// Records a failed write: the write state becomes `failed` with `element`; nothing else changes.
    /// - Returns: ``RepositoryErrorKind/writeFailed`` wrapping `error`, to throw.
    public func failWrite(_ kind: WriteKind, element: Value?, for key: Key, error: any Error) -> RepositoryError {
        log(.warning, "write_failed", key, error: error)
        let operation = kind == .write ? "save" : "delete"
        let failure = RepositoryError(
            .writeFailed, "The service refused the \(operation)", details: details(key), inner: error)
        store.writes.publish(.failed(failure, element: element, at: store.clock.now), kind, for: key)
        return failure
    }

    private func dropStored(_ key: Key) async {
        do {
            try await store.datastore.delete(key)
        } catch {
            log(.warning, "datastore_delete_failed", key, error: error)
        }
    }
}
