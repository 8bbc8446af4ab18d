import Foundation

extension ConfigurationValidator {
    /// Checks `refresh`, `hook` and `tags` of one repository.
    func validateLiveSettings(_ repository: RepositorySettings, path: String) throws(ConfigurationError) {
        if let refresh = repository.refresh {
            let path = path + ".refresh"
            let known = RefreshSettings.kinds.keys.sorted().joined(separator: ", ")
            guard !refresh.keys.isEmpty else { throw fail(path + ".keys", "expected at least one of: \(known)") }
            for (index, kind) in refresh.keys.enumerated() where RefreshSettings.kinds[kind] == nil {
                throw fail("\(path).keys[\(index)]", "expected one of: \(known), found \"\(kind)\"")
            }
            if let fraction = refresh.beforeExpiry, !(fraction > 0 && fraction < 1) {
                throw fail(path + ".beforeExpiry", "expected a fraction above 0 and below 1, found \(fraction)")
            }
            guard (0...0.5).contains(refresh.jitter) else {
                throw fail(path + ".jitter", "expected a fraction between 0 and 0.5, found \(refresh.jitter)")
            }
            if let interval = refresh.interval { try requirePositive(interval, path + ".interval") }
            try requirePositive(refresh.recentWindow, path + ".recentWindow")
            try requireCount(refresh.concurrency, in: 1...1024, path + ".concurrency")
            try requireCount(refresh.maxKeys, in: 1...10_000_000, path + ".maxKeys")
        }
        if let hook = repository.hook {
            try requirePositive(hook.window, path + ".hook.window", max: 86_400)
        }
        try requireHeaderName(repository.tags.field, path + ".tags.field")
        try requireCount(repository.tags.maxEntries, in: 1...10_000_000, path + ".tags.maxEntries")
    }

    /// Checks a service's change stream is an `http://host[:port]/path` URL.
    func validateChangesURL(_ text: String, path: String) throws(ConfigurationError) {
        guard let url = URL(string: text), url.scheme == "http", url.host?.isEmpty == false else {
            throw fail(path, "expected an http://host[:port]/path URL of a Server-Sent Events stream, found \"\(text)\"")
        }
    }
}
