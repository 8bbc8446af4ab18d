import HTTP1

extension GatewayRouter {
    /// `POST /admin/reload`: reloads the configuration file and answers what changed, or a 422
    /// Problem saying why the running configuration stays.
    func reloadConfiguration(path: Substring) async -> HTTPResponse {
        guard let reload else {
            return refuse(
                .reloadFailed, "This gateway was not started from a configuration file it can reload", path: path)
        }
        do {
            return JSONResponse.make(try await reload().jsonObject)
        } catch let error as GatewayError {
            return ProblemResponse.make(error, path: path)
        } catch {
            let refusal = GatewayError(
                .reloadFailed, "The configuration was not reloaded; the running one stays", inner: error)
            return ProblemResponse.make(refusal, path: path)
        }
    }
}
