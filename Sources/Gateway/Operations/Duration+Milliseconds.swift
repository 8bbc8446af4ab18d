extension Duration {
    /// The duration in milliseconds, with fractions, for log fields.
    var milliseconds: Double {
        // `components` divides a 128-bit count: asked once, not once per part.
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
