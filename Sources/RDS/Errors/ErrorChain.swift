/// The links of an error chain, outermost first.
public struct ErrorChain: Sendable, Hashable {
    /// The links, outermost first.
    public let links: [ErrorLink]

    /// Walks `error` and every `inner` error it wraps.
    ///
    /// Errors that are not ``ChainedError`` become one final link with the code `unexpected`
    /// (or `cancelled` for `CancellationError`) and their type name as message, so foreign
    /// error descriptions, which may carry secrets, never leak.
    public init(_ error: any Error) {
        var links: [ErrorLink] = []
        var current: (any Error)? = error
        while let next = current, links.count < 32 {
            if let chained = next as? any ChainedError {
                links.append(ErrorLink(code: chained.code, message: chained.message, details: chained.details))
                current = chained.inner
            } else if next is CancellationError {
                links.append(ErrorLink(code: "cancelled", message: "The operation was cancelled"))
                current = nil
            } else {
                links.append(ErrorLink(code: "unexpected", message: String(describing: type(of: next))))
                current = nil
            }
        }
        self.links = links
    }

    /// A chain of `links`, outermost first (for instance, links with some details removed).
    public init(links: [ErrorLink]) {
        self.links = links
    }

    /// The chain as nested links, outermost first, for JSON encoding (`inner` is `null` at the end).
    public var nested: NestedErrorLink? {
        links.reversed().reduce(nil) { inner, link in NestedErrorLink(link: link, inner: inner) }
    }
}
