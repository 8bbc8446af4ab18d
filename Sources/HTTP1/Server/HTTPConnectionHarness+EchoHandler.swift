extension HTTPConnectionHarness {
    /// Answers every request 200 with `METHOD target` as its body, on the event loop
    /// (`respondImmediately`) or in a task, as `answering` says.
    public struct EchoHandler: HTTPHandler {
        /// Which path the answers take.
        public enum Answering: Sendable, CaseIterable {
            /// Every answer on the loop, at once.
            case immediately
            /// Every answer from a task.
            case asynchronously
            /// Targets of odd length from a task, the rest at once.
            case mixed
        }

        /// Which path the answers take.
        public let answering: Answering

        /// A handler answering as `answering` says.
        public init(answering: Answering) { self.answering = answering }

        /// The body of the answer to `request`.
        public static func body(for request: HTTPRequest) -> String { "\(request.method.rawValue) \(request.target)" }

        /// The answer at once, unless this request takes the task path.
        public func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
            switch answering {
            case .immediately: answer(request)
            case .asynchronously: nil
            case .mixed: request.target.utf8.count % 2 == 0 ? answer(request) : nil
            }
        }

        /// The answer, after a yield (so it really comes back later).
        public func handle(_ request: HTTPRequest) async -> HTTPResponse {
            await Task.yield()
            return answer(request)
        }

        private func answer(_ request: HTTPRequest) -> HTTPResponse {
            HTTPResponse(status: 200, bytes: Array(Self.body(for: request).utf8))
        }
    }
}
