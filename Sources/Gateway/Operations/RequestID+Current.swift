extension RequestID {
    /// The id of the request being answered by the current task, set by ``InstrumentedHandler``
    /// (in the request's ``RequestContext``).
    ///
    /// Tasks started while answering (an upstream fetch, a background refresh) inherit it, so the
    /// upstream service can send it on as `X-Request-ID` without it being threaded through RDS.
    public static var current: RequestID? { RequestContext.current?.id }
}
