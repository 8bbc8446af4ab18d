import Foundation
import Glibc
import Gateway
import HTTP1
import RDS
import RDSTesting
import Synchronization
import Testing

/// The loop-native pass-through (``LoopPassThrough``) against today's path: two gateways, one
/// with it and one without, send the same requests for keys the upstream marks hit-for-pass to a
/// scripted upstream on a socket, and every client-visible answer (fields but `Date` and
/// `X-Request-ID`, in order, and body) and every log line (but durations and ids) must agree.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndLoopPassThroughTests {
    /// A body longer than the server copies behind a head.
    static let bigBody = String(repeating: "0123456789", count: 300)

    /// The upstream's answer to call `call` of the item `name`: every item's first answer is
    /// `no-store` (it marks the key), later ones depend on the item. `nil`: no answer at all.
    static func reply(item name: String, call: Int) -> String? {
        func answer(_ status: String, _ fields: String, _ body: String) -> String {
            "HTTP/1.1 \(status)\r\n\(fields)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }
        let passing = "Content-Type: text/plain\r\nCache-Control: no-store\r\nSet-Cookie: visit=\(call)\r\n"
            + "ETag: \"v1\"\r\nX-Upstream: yes\r\nConnection: keep-alive, X-Upstream-Private\r\n"
            + "X-Upstream-Private: hop\r\n"
        guard call > 1 else { return answer("200 OK", passing, "first") }
        switch name {
        case "chunked":
            return "HTTP/1.1 200 OK\r\n\(passing)Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        case "big": return answer("200 OK", passing, bigBody)
        case "failing": return answer("503 Service Unavailable", passing, #"{"down":true}"#)
        case "notfound": return answer("404 Not Found", passing, "gone")
        case "malformed": return "HTTP/1.1 abc\r\n\r\n"
        case "silent": return nil
        case "cacheable": return answer("200 OK", "Content-Type: text/plain\r\nCache-Control: max-age=60\r\n", "now")
        case "odd": return answer("200 OK", oddFields, "odd")
        case "partial": return answer("206 Partial Content", passing + "Content-Range: bytes 0-2/10\r\n", "abc")
        case "nonascii": return answer("200 OK", passing + "X-Name: caf\u{E9}\r\n", "accent")
        default: return answer("200 OK", passing, "call \(call)")
        }
    }

    /// Fields a relay of lines as received could get wrong: names in any case, repeated names,
    /// odd whitespace, two `Date`s, `Server`, hop-by-hop and `Connection`-named fields, the
    /// targeted field (whose `no-store` governs), the fields the gateway replaces or hides, `Age`.
    static let oddFields =
        "server: upstream\r\nDate: Mon, 07 Nov 1994 08:49:37 GMT\r\nX-Dup: one\r\nCache-Control:max-age=60   \r\n"
        + "CDN-Cache-Control: no-store\r\nx-dup:  two\t\r\nDATE: Tue, 08 Nov 1994 08:49:37 GMT\r\n"
        + "Connection: X-Named, keep-alive\r\nx-named: hop\r\nKeep-Alive: timeout=5\r\nX-Cache: HIT\r\n"
        + "cache-status: upstream; hit\r\nX-Request-ID: upstream-id\r\nSurrogate-Key: a b\r\nAge: 7\r\nEmpty:\r\n"
        + "ETag: \"o1\"\r\n"

    /// The requests both gateways get, in order, after each item's first (marking) request.
    static let requests: [(method: HTTPMethod, item: String, headers: HTTPHeaders)] = [
        (.get, "plain", [:]), (.head, "plain", [:]), (.get, "plain", ["If-None-Match": "\"v1\""]),
        (.get, "plain", ["Range": "bytes=0-2"]), (.get, "plain", ["X-Request-ID": "client-id-1"]),
        (.get, "chunked", [:]), (.get, "big", [:]), (.get, "failing", [:]), (.get, "notfound", [:]),
        (.get, "malformed", [:]), (.get, "silent", [:]), (.get, "cacheable", [:]), (.get, "cacheable", [:]),
        (.get, "odd", [:]), (.head, "odd", [:]), (.get, "odd", ["If-None-Match": "\"o1\""]), (.get, "partial", [:]),
        (.get, "nonascii", [:]),
    ]

    /// Runs the requests on every route (`/items`: Problem Details; `/raw`: upstream errors passed
    /// through; `/shown`: its own `Cache-Control` downstream, the tag field shown) of a gateway,
    /// its keys named `<item>.<tag>`; returns the answers and the log lines.
    static func run(onLoop: Bool, upstream: RawSocketUpstream) async throws -> ([String], [String]) {
        let tag = onLoop ? "loop" : "task"  // of one length: the answers' lengths agree
        let timeouts = UpstreamTimeouts(connect: 2, firstByte: 0.3, total: 5)
        let gateway = try await EndToEndGateway.start(
            services: ["up": ServiceSettings(baseURL: "http://127.0.0.1:\(upstream.port)", timeouts: timeouts)],
            repositories: [
                "items": RepositorySettings(route: "/items/{id}", service: "up"),
                "raw": RepositorySettings(
                    route: "/raw/{id}", service: "up", upstreamPath: "/items/{id}", upstreamErrors: .passthrough),
                "shown": RepositorySettings(
                    route: "/shown/{id}", service: "up", upstreamPath: "/items/{id}",
                    downstreamCacheControl: "public, max-age=5", tags: TagSettings(expose: true)),
            ],
            passThroughOnLoop: onLoop)
        var answers: [String] = []
        for route in Self.routes {
            for item in Set(requests.map(\.item)).sorted() {
                _ = try await gateway.get("\(route)\(item).\(tag)")
            }
            for request in requests {
                let response = try await gateway.send(request.method, "\(route)\(request.item).\(tag)", headers: request.headers)
                answers.append(described(response, tag: tag))
            }
        }
        let logger = try #require(gateway.container.logger as? RecordingLogger)
        let lines = logger.entries.map { described($0, tag: tag) }
        await gateway.stop()
        return (answers, lines)
    }

    /// An answer as text: status, fields in order (but `Date`, and a generated `X-Request-ID` as
    /// `<id>`), body; the key's tag removed.
    static func described(_ response: HTTPResponse, tag: String) -> String {
        let fields = response.headers.fields.filter { $0.name != "Date" }.map { field in
            field.name == "X-Request-ID" && field.value != "client-id-1"
                ? "X-Request-ID: <id>" : "\(field.name): \(field.value)"
        }
        var body = response.text
        if let id = response.headers["X-Request-ID"] { body = body.replacingOccurrences(of: id, with: "<id>") }
        return "\(response.status) \(fields) \(body)".replacingOccurrences(of: ".\(tag)", with: "")
    }

    /// An upstream request head as text, its generated request id as `<id>` and the key's tag removed.
    static func described(head: String, tag: String) -> String {
        head.replacingOccurrences(of: "X-Request-ID: [0-9a-f]{32}", with: "X-Request-ID: <id>", options: .regularExpression)
            .replacingOccurrences(of: ".\(tag)", with: "")
    }

    /// A log line as text, but its duration and request id; the key's tag removed.
    static func described(_ entry: RecordingLogger.Entry, tag: String) -> String {
        let fields = entry.fields.filter { $0.key != "duration_ms" && $0.key != "request_id" }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "\(entry.level) \(entry.event) \(fields)".replacingOccurrences(of: ".\(tag)", with: "")
    }

    static let routes = ["/items/", "/raw/", "/shown/"]

    @Test func everyAnswerAndLogLine_IsTodays_OnTheLoop() async throws {
        let upstream = try RawSocketUpstream { head, _ in
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let key = String(target.split(separator: "/").last ?? "")
            let item = String(key.split(separator: ".").first ?? "")
            let call = Self.calls.withLock { calls in
                calls[key, default: 0] += 1
                return calls[key, default: 0]
            }
            return Self.reply(item: item, call: call).map { Array($0.utf8) }
        }
        defer { upstream.stop() }
        let (onLoop, onLoopLines) = try await Self.run(onLoop: true, upstream: upstream)
        let sentOnLoop = upstream.requests
        let inTasks = try await Self.run(onLoop: false, upstream: upstream)
        // The upstream got the same request heads, byte for byte (but the keys' tags and the ids).
        let sentInTasks = Array(upstream.requests.dropFirst(sentOnLoop.count))
        #expect(
            sentOnLoop.map { Self.described(head: $0, tag: "loop") }
                == sentInTasks.map { Self.described(head: $0, tag: "task") })
        #expect(sentOnLoop.contains { $0.contains("X-Request-ID: client-id-1") })
        let count = Self.requests.count
        #expect(onLoop.count == count * Self.routes.count)
        for (loop, task) in zip(onLoop, inTasks.0) { #expect(loop == task) }
        #expect(onLoopLines == inTasks.1)
        // The answers are what the items say, not one failure for all.
        #expect(onLoop.first?.hasPrefix("200 ") == true && onLoop.first?.hasSuffix(" call 2") == true)
        #expect(onLoop[5].hasSuffix("hello world") && onLoop[6].hasSuffix(Self.bigBody))
        #expect(onLoop[7].hasPrefix("502 ") && onLoop[count + 7].hasPrefix("503 "))
        #expect(onLoop[12].contains("X-Cache: HIT"))
        // The odd fields: each kept as sent but for its whitespace, or dropped, or replaced.
        let odd = onLoop[13]
        for kept in ["X-Dup: one", "x-dup: two", "Cache-Control: max-age=60", "Age: 7", "Empty: ", "X-Cache: BYPASS"] {
            #expect(odd.contains("\"\(kept)\""), "\(kept)")
        }
        for dropped in ["server", "x-named", "Keep-Alive", "CDN-Cache-Control", "HIT", "upstream", "Surrogate-Key"] {
            #expect(!odd.contains(dropped), "\(dropped)")
        }
        // Shown: the tag field, and the route's own `Cache-Control` after the upstream's fields.
        #expect(onLoop[2 * count + 13].contains("\"Surrogate-Key: a b\""))
        #expect(
            onLoop[2 * count + 13].contains(
                "\"Cache-Control: public, max-age=5\", \"X-Cache: BYPASS\", \"Cache-Status: rds-gateway; fwd=miss\""))
        #expect(onLoop[16].hasPrefix("206 ") && onLoop[16].contains("Content-Range: bytes 0-2/10"))
        #expect(onLoop[17].contains("X-Name: caf\u{E9}"))
        // Every answer carries its request's id, once: the client's where it sent one.
        #expect(onLoop.allSatisfy { $0.components(separatedBy: "X-Request-ID: ").count == 2 })
        #expect(onLoop[4].contains("X-Request-ID: client-id-1"))
    }

    /// The pass-throughs of a marked key take no task with the path on, and one each without.
    @Test(arguments: [true, false])
    func markedKey_IsAnsweredWithoutTheAsyncPath_OnlyWithThePathOn(_ onLoop: Bool) async throws {
        let upstream = try RawSocketUpstream { _, _ in
            Array("HTTP/1.1 200 OK\r\nCache-Control: no-store\r\nContent-Length: 2\r\n\r\nok".utf8)
        }
        defer { upstream.stop() }
        let configuration = GatewayConfiguration(
            server: ServerSettings(port: 0),
            services: ["up": ServiceSettings(baseURL: "http://127.0.0.1:\(upstream.port)")],
            repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")])
        let container = try await Bootstrap.makeContainer(configuration: configuration, logger: RecordingLogger())
        let router = ReloadableHandler(container: container)
        let counting = AsyncCountingHandler(router)
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0),
            handler: InstrumentedHandler(
                wrapping: counting, metrics: container.metrics, logger: container.logger, classify: router.classify,
                passesThroughOnLoop: onLoop))
        try await server.start()
        for _ in 0..<4 {
            let response = try await EndToEndClient.send(.get, "/items/live", port: server.port)
            #expect(response.text == "ok" && response.headers["X-Cache"] == "BYPASS")
        }
        // The first read finds no mark: it takes the async path either way.
        #expect(counting.asyncCalls == (onLoop ? 1 : 4))
        #expect(upstream.requests.count == 4)
        await server.shutdown(gracePeriod: .zero)
        await Bootstrap.shutdown(container: container)
    }

    /// A client leaving while its pass-through waits for the upstream: the upstream call is
    /// abandoned and the request logged as today's path logs it (status 499).
    @Test func clientLeavingMidCall_IsLoggedAsTodays() async throws {
        let answered = Mutex<Set<String>>([])
        let upstream = try RawSocketUpstream { head, _ in
            // The first read of a key marks it; the upstream never answers the others.
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let isFirst = answered.withLock { $0.insert(target).inserted }
            return isFirst ? Array(Self.reply(item: "plain", call: 1)!.utf8) : nil
        }
        defer { upstream.stop() }
        var lines: [[String]] = []
        for onLoop in [true, false] {
            let tag = onLoop ? "loop" : "task"
            let gateway = try await EndToEndGateway.start(
                services: ["up": ServiceSettings(baseURL: "http://127.0.0.1:\(upstream.port)")],
                repositories: ["items": RepositorySettings(route: "/items/{id}", service: "up")],
                passThroughOnLoop: onLoop)
            _ = try await gateway.get("/items/left.\(tag)")
            let before = upstream.requests.count
            let client = try EndToEndClient.connect(.get, "/items/left.\(tag)", port: gateway.port, headers: [:], body: "")
            _ = await upstream.requests(atLeast: before + 1)
            close(client)
            let logger = try #require(gateway.container.logger as? RecordingLogger)
            for _ in 0..<1_000 where !logger.entries.contains(where: { $0.fields["status"] == .int(499) }) {
                try await Task.sleep(for: .milliseconds(5))
            }
            lines.append(logger.entries.map { Self.described($0, tag: tag) })
            await gateway.stop()
        }
        #expect(lines[0].contains { $0.contains("status=int(499)") })
        #expect(lines[0] == lines[1])
    }

    /// Calls per key, for the upstream's script.
    private static let calls = Mutex<[String: Int]>([:])
}
