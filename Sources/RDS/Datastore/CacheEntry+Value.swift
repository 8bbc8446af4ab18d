extension CacheEntry {
    /// The same entry (dates, validators, flags) holding `value` instead, and `validators` when given.
    public func withValue<Other>(_ value: Other, validators: Validators? = nil) -> CacheEntry<Other> {
        CacheEntry<Other>(
            value: value, storedAt: storedAt, expiresAt: expiresAt, validators: validators ?? self.validators,
            initialAge: initialAge, mustRevalidate: mustRevalidate, staleWhileRevalidate: staleWhileRevalidate,
            staleIfError: staleIfError)
    }
}
