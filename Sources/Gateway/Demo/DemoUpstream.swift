import Foundation
import HTTP1
import RDS

/// The embedded demo upstream: weather by city, location search, read-write notes, and knobs to
/// make it slow or fail, so every gateway feature can be shown offline with curl.
///
/// Resources: `GET /weather/{city}` (`max-age=30`, a new report each minute), `GET
/// /locations?name=` (`max-age=300`), `GET/PUT/PATCH/DELETE /notes/{id}` (`max-age=30`). All
/// answers carry an ETag and honour `If-None-Match` with 304. Any request may add `?delay=ms`
/// and `?fail=status`. Admin: `POST /__demo/fail?status=503[&for=seconds]`, `POST
/// /__demo/slow?ms=2000[&for=seconds]`, `POST /__demo/recover`, `GET /__demo/stats`.
public struct DemoUpstream: HTTPHandler {
    private let clock: any ClockProvider
    private let faults = DemoFaults()
    private let notes = DemoNotes()

    /// The longest `delay` a request may ask for, in milliseconds.
    static let maxDelayMilliseconds = 60_000

    /// Creates a demo upstream that reads time from `clock`.
    public init(clock: any ClockProvider = SystemClock()) {
        self.clock = clock
    }

    /// Answers one request.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        let query = QueryItems(request.query)
        if path.hasPrefix("/__demo/") { return admin(request, path: path.dropFirst("/__demo/".count), query: query) }
        let switched = faults.recordRequest(at: clock.now)
        let asked = query["delay"].flatMap(Int.init).map { min(max($0, 0), Self.maxDelayMilliseconds) } ?? 0
        let delay = max(Double(asked) / 1000, switched.delay)
        if delay > 0 {
            do {
                try await clock.sleep(until: clock.now.addingTimeInterval(delay))
            } catch {
                return DemoResponse.problem(status: 503, "the request was cancelled while delayed")
            }
        }
        if let status = query["fail"].flatMap(Int.init) ?? switched.failStatus, (400...599).contains(status) {
            return DemoResponse.problem(status: status, "the demo upstream was told to fail")
        }
        return route(request, path: path, query: query)
    }

    private func route(_ request: HTTPRequest, path: Substring, query: QueryItems) -> HTTPResponse {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch (request.method, parts.first, parts.count) {
        case (.get, "weather", 2), (.head, "weather", 2):
            return weather(String(parts[parts.startIndex + 1]), request: request)
        case (.get, "locations", 1), (.head, "locations", 1):
            return locations(query["name"], request: request)
        case (_, "notes", 2) where !parts[parts.startIndex + 1].isEmpty:
            return note(String(parts[parts.startIndex + 1]), request: request)
        case (_, "weather", 2), (_, "locations", 1):
            return DemoResponse.problem(status: 405, "only GET and HEAD", headers: ["Allow": "GET, HEAD"])
        default:
            return DemoResponse.problem(status: 404, "no such demo resource")
        }
    }

    private func weather(_ segment: String, request: HTTPRequest) -> HTTPResponse {
        guard let city = DemoCity.named(segment) else {
            return DemoResponse.problem(
                status: 404, "the demo knows no city \"\(segment.removingPercentEncodingOrSelf)\"")
        }
        let tags = ["weather", "country-\(city.country.lowercased())"]
        return DemoResponse.json(DemoWeatherReport(city: city, at: clock.now), maxAge: 30, tags: tags, request: request)
    }

    private func locations(_ name: String?, request: HTTPRequest) -> HTTPResponse {
        guard let name, !name.isEmpty else {
            return DemoResponse.problem(status: 400, "the query parameter name is required")
        }
        return DemoResponse.json(DemoCity.search(name), maxAge: 300, request: request)
    }

    private func note(_ id: String, request: HTTPRequest) -> HTTPResponse {
        switch request.method {
        case .get, .head:
            guard let note = notes.note(id) else { return DemoResponse.problem(status: 404, "no note \"\(id)\"") }
            return DemoResponse.note(note, id: id, status: 200, request: request)
        case .put:
            let contentType = request.headers["Content-Type"] ?? "application/octet-stream"
            let (note, created) = notes.put(id, body: request.body, contentType: contentType)
            return DemoResponse.note(note, id: id, status: created ? 201 : 200, request: request)
        case .patch:
            do {
                guard let note = try notes.patch(id, with: request.body) else {
                    return DemoResponse.problem(status: 404, "no note \"\(id)\"")
                }
                return DemoResponse.note(note, id: id, status: 200, request: request)
            } catch {
                return DemoResponse.problem(status: 400, "PATCH needs a JSON object body and a JSON object note")
            }
        case .delete:
            guard notes.delete(id) else { return DemoResponse.problem(status: 404, "no note \"\(id)\"") }
            return HTTPResponse(status: 204, headers: ["Cache-Control": "no-store"])
        default:
            return DemoResponse.problem(
                status: 405, "notes allow GET, HEAD, PUT, PATCH and DELETE",
                headers: ["Allow": "GET, HEAD, PUT, PATCH, DELETE"])
        }
    }

    private func admin(_ request: HTTPRequest, path: Substring, query: QueryItems) -> HTTPResponse {
        let now = clock.now
        let until = query["for"].flatMap(Double.init).map { now.addingTimeInterval($0) }
        switch (request.method, path) {
        case (.post, "fail"):
            let status = query["status"].flatMap(Int.init) ?? 503
            guard (400...599).contains(status) else {
                return DemoResponse.problem(status: 400, "status must be 400…599")
            }
            faults.fail(status: status, until: until)
        case (.post, "slow"):
            let milliseconds = query["ms"].flatMap(Int.init) ?? 2_000
            faults.slow(by: Double(min(max(milliseconds, 0), Self.maxDelayMilliseconds)) / 1000, until: until)
        case (.post, "recover"):
            faults.recover()
        case (.get, "stats"):
            break
        default:
            return DemoResponse.problem(status: 404, "demo admin: POST fail|slow|recover, GET stats")
        }
        return JSONResponse.make(faults.snapshot(at: now))
    }
}
