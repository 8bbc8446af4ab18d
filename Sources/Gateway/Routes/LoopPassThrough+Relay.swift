import HTTP1

extension LoopPassThrough {
    /// Today's response to `answer` (of a call that forwarded the client's `forwarded` fields)
    /// when it is plain (see ``LoopPassThrough``), made from its
    /// field lines as received (``RepositoryResponse/relayed(status:lines:body:downstreamCacheControl:)``):
    /// the lines its representation would drop and those today's response replaces are dropped,
    /// and no field becomes a string but those that decide. `nil` when the answer is not plain,
    /// or when today's response could be another than the relayed one: the request is
    /// conditional or asks for a range, the route marks heuristic freshness, or the answer's
    /// lines were not kept (a head with bytes above 0x7F). The answer then goes today's way.
    ///
    /// Its key forwards no unkeyed field (``upstream(for:key:)``), so no `Vary` re-keys the read.
    func relayed(
        _ answer: HTTPResponse, receipt: UpstreamReceipt, forwarded: [(name: String, value: String)],
        for request: HTTPRequest
    ) -> HTTPResponse? {
        let settings = route.settings
        guard let received = answer.fieldLines, case .bytes(let body) = answer.body, answer.status != 304,
            HTTPService.isAnswer(status: answer.status), settings.heuristicFraction == nil,
            !request.headers.fields.contains(where: { RepositoryResponse.conditionalFieldNames.contains($0.name) })
        else { return nil }
        // The answer's `headers` are its framing fields, `Connection` among them: the fields it
        // names (seldom any) are dropped too.
        let named = Representation.namedInConnection(answer.headers)
        let dropped = named.isEmpty ? unrelayedFieldNames : unrelayedFieldNames.adding(named)
        let (lines, deciding) = received.splitting(dropping: dropped, picking: storabilityFieldNames)
        // Not storable, as today's exchange reads it, told from the only fields that can tell.
        guard
            service.policy.storableFreshness(
                status: answer.status, headers: deciding, requestHeaders: HTTPHeaders(forwarded),
                requestTime: receipt.requestTime, responseTime: receipt.responseTime ?? service.clock.now) == nil
        else { return nil }
        return RepositoryResponse.relayed(
            status: answer.status, lines: lines, body: body, downstreamCacheControl: settings.downstreamCacheControl)
    }
}
