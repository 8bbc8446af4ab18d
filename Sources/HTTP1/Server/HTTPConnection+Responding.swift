extension HTTPConnection {
    /// Hands a parsed request to the handler: first `respondImmediately(to:)` right here on the
    /// loop (no task, no hop), else `handle(_:)` in a task that prefers this loop as its executor
    /// (one the loop keeps between requests), so the handler (and an upstream call it makes on
    /// ``EventLoop/current``) runs on the loop's thread and its answer is queued without a thread switch.
    /// Returns `true` when the connection is ready for the next request at once.
    func dispatch(_ request: consuming HTTPRequest) -> Bool {
        request.remoteAddress = remoteAddress
        if isReserved, refusesOutsideReserve(request) { return false }
        machine.requestReceived(
            keepAlive: !isReserved && request.headers.connectionKeepsAlive(version: request.version))
        answeringMethod = request.method
        let handler = context.handler
        if let response = handler.respondImmediately(to: &request) {
            return respond(with: response)
        }
        isAwaitingLoopAnswer = true
        if handler.answerOnLoop(request, HTTPLoopAnswer(connection: self)) { return false }
        isAwaitingLoopAnswer = false
        loopAnswerCancel = nil
        task = loop.startTask { [self, request] in
            let response = await handler.handle(request)
            // The task prefers the loop, so it is on the loop's thread here: the answer is queued
            // at once, not handed to the loop as work for later in its turn.
            guard loop.isInLoopThread else { return loop.execute { [self] in handlerAnswered(response) } }
            handlerAnswered(response)
        }
        return false
    }

    private func handlerAnswered(_ response: HTTPResponse) {
        guard !isClosed, machine.state == .responding, task != nil else { return }
        task = nil
        if respond(with: response) { parseBufferedRequests() }
        flush()
    }

    /// The answer a handler promised in ``HTTPHandler/answerOnLoop(_:_:)``: queued as a task's
    /// is; dropped once the connection closed (or gave up on it). One given while requests are
    /// being parsed (before `answerOnLoop` returned) waits for the loop's next turn, where the
    /// requests behind it are parsed again.
    func loopAnswered(_ response: HTTPResponse) {
        guard !isParsing else { return loop.execute { [self] in loopAnswered(response) } }
        guard !isClosed, machine.state == .responding, isAwaitingLoopAnswer else { return }
        isAwaitingLoopAnswer = false
        loopAnswerCancel = nil
        if respond(with: response) { parseBufferedRequests() }
        flush()
    }

    /// Gives up on a handler's work for the request being answered: cancels its task, or the
    /// work it started on the loop (see ``HTTPLoopAnswer/onCancel(_:)``).
    func cancelHandlerWork() {
        task?.cancel()
        task = nil
        isAwaitingLoopAnswer = false
        let cancel = loopAnswerCancel
        loopAnswerCancel = nil
        cancel?()
    }

    /// Queues a response: its head, then its body by reference (a cached body is written from
    /// the cache's own storage; one of up to ``HTTPOutboundQueue/copiedBodyBytes`` is copied
    /// behind the head instead), or starts the pump task of a stream. Returns `true` when the
    /// connection is ready for the next request at once. Head and body leave in one `writev`.
    @discardableResult
    func respond(with response: HTTPResponse) -> Bool {
        let allowsBody = HTTPSerializer.allowsBody(status: response.status, requestMethod: answeringMethod)
        // A small body is written into the head's memory (cheaper than a second `iovec`); a
        // larger one is queued as the storage it is, never joined to the head by the queue.
        let joined: [UInt8] =
            if allowsBody, case .bytes(let body) = response.body, body.count <= HTTPOutboundQueue.copiedBodyBytes { body } else { [] }
        enqueue(
            HTTPSerializer.head(
                response, requestMethod: answeringMethod, keepAlive: machine.keepAlive, date: dates.current(),
                followedBy: joined))
        guard allowsBody else { return responseSent() }
        switch response.body {
        case .bytes(let body):
            if body.count > HTTPOutboundQueue.copiedBodyBytes { enqueue(unjoined: body) }
            return responseSent()
        case .stream(let stream):
            flush()
            machine.streamStarted()
            pump(stream)
            return false
        }
    }

    /// The state machine's verdict once a whole response is queued.
    private func responseSent() -> Bool {
        let action = machine.responseSent(now: loop.instant)
        guard action != .readNextRequest else { return true }
        perform(action)
        return false
    }

    // MARK: Streaming

    /// Writes each element of `stream` as a chunk as soon as it arrives (by reference: one
    /// element shared by many connections stays one buffer), waiting while the client is slow;
    /// the stream is cancelled (its `onTermination` runs) when the client goes away, or when it
    /// stays behind longer than `limits.maxStreamLag`.
    private func pump(_ stream: AsyncStream<[UInt8]>) {
        isStreaming = true
        task = loop.startTask { [self] in
            for await element in stream where !element.isEmpty {
                guard await write(chunk: element) else { return }
            }
            loop.execute { [self] in streamEnded() }
        }
    }

    private func write(chunk: [UInt8]) async -> Bool {
        await withUnsafeContinuation { continuation in
            loop.execute { [self] in
                guard !isClosed else { return continuation.resume(returning: false) }
                enqueue(HTTPSerializer.chunkSize(chunk.count))
                enqueue(chunk)
                enqueue(HTTPSerializer.crlf)
                flush()
                guard !isClosed else { return continuation.resume(returning: false) }
                if isOutboundFull {
                    drainWaiter = continuation
                } else {
                    continuation.resume(returning: true)
                }
            }
        }
    }

    private func streamEnded() {
        guard !isClosed, machine.state == .responding else { return }
        task = nil
        isStreaming = false
        enqueue(HTTPSerializer.lastChunk)
        if responseSent() { parseBufferedRequests() }
        flush()
    }

    // MARK: Errors

    /// Answers a parse error with its status and a JSON body, then closes.
    func fail(_ error: HTTPParseError) {
        guard case .sendErrorAndClose = machine.parseFailed(status: error.status) else { return }
        sendError(HTTPErrorResponse.make(for: error))
    }

    /// Queues an error response (the state machine is closing, so it carries `Connection: close`)
    /// and closes after writing it.
    func sendError(_ response: HTTPResponse) {
        answeringMethod = .get
        cancelHandlerWork()
        respond(with: response)
    }
}
