import Foundation
import Gateway
import HTTP1
import Synchronization
import Testing

/// The status page at `GET /admin/` in a real browser (issue 15 item 1): headless Chromium loads
/// it against a running gateway, and the DOM shows a change made at the gateway while the page
/// is open. Skipped when no Chromium is installed, unless `RDS_REQUIRE_SERVICES=1` (CI), where
/// a missing browser fails. The screenshot is saved as `.build/status-page.png`.
struct StatusPageBrowserTests {
    private static let chromium = HeadlessChromium.executable()
    private static let required = ProcessInfo.processInfo.environment["RDS_REQUIRE_SERVICES"] == "1"

    @Test(
        .enabled(if: chromium != nil || required, "needs chromium (apt-get install chromium)"),
        .timeLimit(.minutes(1)))
    func page_ShowsRepositoriesErrorsAndALiveStateChange() async throws {
        let executable = try #require(Self.chromium, "chromium is required (RDS_REQUIRE_SERVICES=1) but not on PATH")
        let upstream = try await EndToEndUpstream.start()
        let note = Mutex("first")
        upstream.on("/items/a") { request, _ in
            if request.method == .put { note.withLock { $0 = "second" } }
            return EndToEndUpstream.Reply(
                headers: ["Content-Type": "application/json", "Cache-Control": "max-age=60"],
                body: #"{"note":"\#(note.withLock { $0 })"}"#)
        }
        upstream.on("/items/broken") { _, _ in EndToEndUpstream.Reply(status: 500, body: "{}") }
        let gateway = try await EndToEndGateway.start(upstream: upstream.baseURL) { $0.methods = ["GET", "HEAD", "PUT"] }
        _ = try await gateway.get("/items/a")
        #expect(try await gateway.get("/items/broken").status == 502)

        try await HeadlessChromium.run(executable: executable) { browser in
            let page = try await browser.open("http://127.0.0.1:\(gateway.port)/admin/?follow=/items/a")
            let row = #"document.querySelector('tr[data-path="/items/a"]')"#
            #expect(try await browser.waitUntil(#"\#(row)?.dataset.state === "loaded" && \#(row).textContent.includes("first")"#, session: page))
            #expect(try await browser.waitUntil(#"document.getElementById("repositories").tBodies[0].textContent.includes("/items/{id}")"#, session: page))
            #expect(try await browser.waitUntil(#"document.getElementById("errors").tBodies[0].textContent.includes("upstream_bad_response")"#, session: page))
            #expect(try await browser.waitUntil(#"document.getElementById("summary").textContent.includes("ready: yes")"#, session: page))

            // A change while the page is open reaches it through its event stream.
            let written = try await gateway.send(.put, "/items/a", headers: ["Content-Type": "application/json"], body: "{}")
            #expect(written.status == 200)
            #expect(try await browser.waitUntil(#"\#(row)?.textContent.includes("second") && \#(row).textContent.includes("write")"#, session: page))

            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            try await browser.screenshot(session: page, to: root.appendingPathComponent(".build/status-page.png"))
        }
        await gateway.stop()
        await upstream.stop()
    }

    @Test(
        .enabled(if: chromium != nil || required, "needs chromium (apt-get install chromium)"),
        .timeLimit(.minutes(1)))
    func page_ShowsQueuedWrites() async throws {
        let executable = try #require(Self.chromium, "chromium is required (RDS_REQUIRE_SERVICES=1) but not on PATH")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rds-page-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let down = try RefusingPort()
        let gateway = try await EndToEndGateway.start(upstream: down.baseURL, settings: { settings in
            settings.methods = ["GET", "HEAD", "PUT"]
            settings.writes.queue = WriteQueueSettings(retryBase: 600)
        }, disk: folder)
        #expect(try await gateway.send(.put, "/items/a", body: "queued").status == 202)

        try await HeadlessChromium.run(executable: executable) { browser in
            let page = try await browser.open("http://127.0.0.1:\(gateway.port)/admin/")
            let writes = #"document.getElementById("writes").tBodies[0].textContent"#
            #expect(try await browser.waitUntil(#"\#(writes).includes("PUT /items/a") && \#(writes).includes("pending")"#, session: page))
        }
        await gateway.stop()
    }
}
