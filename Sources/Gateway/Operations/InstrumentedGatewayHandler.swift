import HTTP1

/// The handler the gateway's server calls: ``InstrumentedHandler`` over ``ReloadableHandler``,
/// by their types. The server calls its handler through `any HTTPHandler`, and a generic handler
/// behind that runs unspecialised, reaching its inner handler through the protocol, which costs
/// the request's task a switch of executor after the call; called from this type, it is compiled
/// for ``ReloadableHandler`` and calls it directly.
struct InstrumentedGatewayHandler: HTTPHandler {
    /// The instrumented router.
    let instrumented: InstrumentedHandler<ReloadableHandler>

    /// ``InstrumentedHandler/respondImmediately(to:)``.
    func respondImmediately(to request: inout HTTPRequest) -> HTTPResponse? {
        instrumented.respondImmediately(to: &request)
    }

    /// ``InstrumentedHandler/answerOnLoop(_:_:)``.
    func answerOnLoop(_ request: HTTPRequest, _ answer: HTTPLoopAnswer) -> Bool {
        instrumented.answerOnLoop(request, answer)
    }

    /// ``InstrumentedHandler/handle(_:)``.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await instrumented.handle(request)
    }
}
