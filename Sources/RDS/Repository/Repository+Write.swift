extension Repository {
    /// Writes `value` to the service; on success the datastore holds the service's answer
    /// (``WriteResult/stored``, or nothing when that is `nil`) and subscribers see exactly one new
    /// state. On failure nothing changes.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``ServiceError``.
    @discardableResult
    public func save(_ value: Value, for key: Key) async throws -> WriteResult<Value> {
        try await write(key, "save") { try await service.save(value, for: key) }
    }

    /// Deletes the resource at the service; on success the datastore holds the service's answer
    /// (usually nothing) and subscribers see exactly one new state. On failure nothing changes.
    /// - Throws: ``RepositoryErrorKind/writeFailed`` wrapping the ``ServiceError``.
    @discardableResult
    public func delete(_ key: Key) async throws -> WriteResult<Value> {
        try await write(key, "delete") { try await service.delete(key) }
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
        _ key: Key, _ operation: String, _ call: () async throws -> WriteResult<Value>
    ) async throws -> WriteResult<Value> {
        let result: WriteResult<Value>
        do {
            result = try await call()
        } catch {
            log(.warning, "write_failed", key, error: error)
            throw RepositoryError(
                .writeFailed, "The service refused the \(operation)", details: details(key), inner: error)
        }
        await store.flights.supersede(key)
        let now = store.clock.now
        if let stored = result.stored, await keep(stored, for: key, at: now, dropOnFailure: true) != nil {
            store.broadcasters.publish(.loaded(stored.value, origin: .write, at: now), for: key)
        } else {
            if result.stored == nil { await dropStored(key) }
            store.broadcasters.publish(.initialized, for: key)
        }
        return result
    }

    private func dropStored(_ key: Key) async {
        do {
            try await store.datastore.delete(key)
        } catch {
            log(.warning, "datastore_delete_failed", key, error: error)
        }
    }
}
