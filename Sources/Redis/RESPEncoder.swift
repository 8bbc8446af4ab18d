/// Encodes commands as RESP arrays of bulk strings (what every Redis accepts).
public enum RESPEncoder {
    /// Appends `command` (name and arguments) to `output`.
    public static func encode(_ command: RedisCommand, into output: inout [UInt8]) {
        output += Array("*\(command.arguments.count)\r\n".utf8)
        for argument in command.arguments {
            output += Array("$\(argument.count)\r\n".utf8)
            output += argument
            output += [13, 10]
        }
    }

    /// The bytes of `commands`, one after another (a pipeline).
    public static func encode(_ commands: [RedisCommand]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(commands.reduce(0) { $0 + $1.arguments.reduce(16) { $0 + $1.count + 16 } })
        for command in commands { encode(command, into: &output) }
        return output
    }
}
