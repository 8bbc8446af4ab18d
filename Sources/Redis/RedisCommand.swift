/// One Redis command: its name and arguments as binary-safe byte strings.
public struct RedisCommand: Sendable, Equatable, CustomStringConvertible {
    /// The name first, then the arguments.
    public var arguments: [[UInt8]]

    /// A command from text arguments, e.g. `RedisCommand("GET", "key")`.
    public init(_ name: String, _ arguments: String...) {
        self.arguments = [Array(name.utf8)] + arguments.map { Array($0.utf8) }
    }

    /// A command from byte-string parts (the name is the first).
    public init(parts: [[UInt8]]) {
        arguments = parts
    }

    /// The command's name in capitals (never its arguments: they may hold secrets or values).
    public var name: String { String(decoding: arguments.first ?? [], as: UTF8.self).uppercased() }

    /// The name only, for logs and errors.
    public var description: String { name }
}
