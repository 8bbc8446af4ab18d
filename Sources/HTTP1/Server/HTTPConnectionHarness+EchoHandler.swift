extension HTTPConnectionHarness {
    /// Answers every request 200 with `METHOD target` as its body, on the event loop
    /// (`respondImmediately`, or later through `answerOnLoop`) or in a task, as `answering` says.
    public struct EchoHandler: HTTPHandler {
        /// Which path the answers take.
        public enum Answering: Sendable, CaseIterable {
            /// Every answer on the loop, at once.
            case immediately
            /// Every answer from a task.
            case asynchronously
            /// Targets of odd length from a task, the rest at once.
            case mixed
            /// Every answer on the loop, on its next turn, without a task (`answerOnLoop`).
            case later
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
            case .asynchronously, .later: nil
            case .mixed: request.target.utf8.count % 2 == 0 ? answer(request) : nil
            }
        }

        /// For ``Answering/later``: the answer on the loop's next turn.
        public func answerOnLoop(_ request: HTTPRequest, _ answer: HTTPLoopAnswer) -> Bool {
            guard answering == .later else { return false }
            let response = self.answer(request)
            answer.loop.execute { answer.respond(response) }
            return true
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
