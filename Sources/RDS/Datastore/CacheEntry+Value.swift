extension CacheEntry {
    /// The same entry (dates, validators, flags) holding `value` instead.
    public func withValue<Other>(_ value: Other) -> CacheEntry<Other> {
        CacheEntry<Other>(
            value: value, storedAt: storedAt, expiresAt: expiresAt, validators: validators,
            initialAge: initialAge, mustRevalidate: mustRevalidate, staleWhileRevalidate: staleWhileRevalidate,
            staleIfError: staleIfError)
    }
}
