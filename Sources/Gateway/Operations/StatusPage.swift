import HTTP1

/// The live status page at `GET /admin/`: one HTML document with inline CSS and JavaScript, no
/// external assets. It polls `/admin/repositories`, `/health/ready`, `/metrics`, `/admin/errors`
/// and the outbox of each repository that queues writes (pending and dead-lettered) every two seconds and follows resource states with `EventSource` (each
/// repository's warm-up paths, every `?follow=` path of its own URL, and paths typed in).
enum StatusPage {
    /// The page, never cached.
    static let response = HTTPResponse(
        status: 200,
        headers: [
            "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
            "Content-Security-Policy":
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
        ],
        bytes: Array(html.utf8))
}
