import Testing

@testable import Redis

/// The RESP2/RESP3 codec alone: every reply type, every split of the bytes across reads, bounds.
struct RESPParserTests {
    private static let cases: [(bytes: String, value: RESPValue)] = [
        ("+OK\r\n", .simpleString("OK")),
        ("-ERR unknown command\r\n", .error("ERR unknown command")),
        (":-42\r\n", .integer(-42)),
        ("$5\r\nhe\r\no\r\n", .bulkString(Array("he\r\no".utf8))),
        ("$0\r\n\r\n", .bulkString([])),
        ("$-1\r\n", .null),
        ("*-1\r\n", .null),
        ("_\r\n", .null),
        ("*2\r\n$3\r\nfoo\r\n:1\r\n", .array([.bulkString(Array("foo".utf8)), .integer(1)])),
        ("%1\r\n+server\r\n+redis\r\n", .map([(.simpleString("server"), .simpleString("redis"))])),
        ("~2\r\n:1\r\n:2\r\n", .set([.integer(1), .integer(2)])),
        (",1.5\r\n", .double(1.5)),
        (",inf\r\n", .double(.infinity)),
        ("#t\r\n", .boolean(true)),
        ("(3492890328409238509324850943850943825024385\r\n", .bigNumber("3492890328409238509324850943850943825024385")),
        ("=15\r\ntxt:Some string\r\n", .bulkString(Array("Some string".utf8))),
        ("!21\r\nSYNTAX invalid syntax\r\n", .error("SYNTAX invalid syntax")),
        (">2\r\n+invalidate\r\n*0\r\n", .push([.simpleString("invalidate"), .array([])])),
        ("|1\r\n+ttl\r\n:3600\r\n:7\r\n", .integer(7)),
        ("*1\r\n*1\r\n*0\r\n", .array([.array([.array([])])])),
    ]

    @Test(arguments: cases.indices)
    func parse_ReadsEveryType_AtEverySplit(index: Int) throws {
        let (text, expected) = Self.cases[index]
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            var parser = RESPParser()
            parser.append(bytes[..<split])
            let early = try parser.next()
            if split < bytes.count {
                #expect(early == nil, "complete at \(split) of \(bytes.count)")
                parser.append(bytes[split...])
                #expect(try parser.next() == expected)
            } else {
                #expect(early == expected)
            }
            #expect(try parser.next() == nil)
            #expect(parser.bufferedCount == 0)
        }
    }

    @Test func parse_ReturnsPipelinedRepliesInOrder() throws {
        var parser = RESPParser()
        parser.append(Array("+OK\r\n:1\r\n$1\r\nx\r\n".utf8))
        #expect(try parser.next() == .simpleString("OK"))
        #expect(try parser.next() == .integer(1))
        #expect(try parser.next() == .bulkString([UInt8(ascii: "x")]))
        #expect(try parser.next() == nil)
    }

    @Test(arguments: ["?\r\n", ":12x\r\n", "$-2\r\n", "#x\r\n", "*abc\r\n"])
    func parse_RejectsMalformedReplies(text: String) {
        var parser = RESPParser()
        parser.append(Array(text.utf8))
        do {
            _ = try parser.next()
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.kind == .protocolError)
        }
    }

    @Test func parse_RefusesBulkOverTheLimit_BeforeItArrives() {
        var parser = RESPParser(maxBulkBytes: 1_024)
        parser.append(Array("$1025\r\n".utf8))
        #expect(throws: RedisError.self) { try parser.next() }
    }

    @Test func parse_RefusesDeepNesting_AndHugeAggregates() {
        var deep = RESPParser(maxDepth: 4)
        deep.append(Array(String(repeating: "*1\r\n", count: 6).utf8) + Array(":1\r\n".utf8))
        #expect(throws: RedisError.self) { try deep.next() }
        var wide = RESPParser(maxElements: 10)
        wide.append(Array("*11\r\n".utf8))
        #expect(throws: RedisError.self) { try wide.next() }
    }

    @Test func parse_RefusesAnEndlessLine() {
        var parser = RESPParser()
        parser.append([UInt8(ascii: "+")] + [UInt8](repeating: 0x61, count: 70_000))
        #expect(throws: RedisError.self) { try parser.next() }
    }

    @Test func encode_WritesCommandsAsArraysOfBulkStrings() {
        let bytes = RESPEncoder.encode([
            RedisCommand("SET", "k", "v\r\n"), RedisCommand(parts: [Array("GET".utf8), [0, 255]]),
        ])
        let expected = Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv\r\n\r\n*2\r\n$3\r\nGET\r\n$2\r\n".utf8) + [0, 255, 13, 10]
        #expect(bytes == expected)
    }

    @Test func encodedCommand_ParsesBackAsTheSameArguments() throws {
        let command = RedisCommand(parts: [Array("XADD".utf8), [], Array("é\0".utf8)])
        var parser = RESPParser()
        parser.append(RESPEncoder.encode([command]))
        #expect(try parser.next() == .array(command.arguments.map { .bulkString($0) }))
    }

    @Test func accessors_ReadRESP2AndRESP3Alike() {
        #expect(RESPValue.map([(.simpleString("a"), .integer(1))]).array == [.simpleString("a"), .integer(1)])
        #expect(RESPValue.bulkString(Array("12".utf8)).integer == 12)
        #expect(RESPValue.simpleString("OK").string == "OK")
        #expect(RESPValue.null.isNull)
        #expect(RedisCommand("auth", "user", "secret").description == "AUTH")
    }
}
