/// A command line `rds-gateway` cannot run with.
public struct CommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
