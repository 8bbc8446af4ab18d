extension RequestID {
    /// The id of the request being answered by the current task, set by ``InstrumentedHandler``.
    ///
    /// Tasks started while answering (an upstream fetch, a background refresh) inherit it, so the
    /// upstream service can send it on as `X-Request-ID` without it being threaded through RDS.
    @TaskLocal public static var current: RequestID?
}
