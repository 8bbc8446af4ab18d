extension Duration {
    /// The duration in milliseconds, with fractions, for log fields.
    var milliseconds: Double {
        Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
    }
}
