import RDS

extension GatewayRouter {
    /// Request fields whose values the admin output hides: they carry credentials.
    private static let credentialFields: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// `variants` in a stable order for the admin output: by their field values.
    static func sortedForDisplay(_ variants: [ResourceKey]) -> [ResourceKey] {
        variants.sorted { lhs, rhs in
            lhs.sortedHeaders.map { "\($0.name)=\($0.value)" }.lexicographicallyPrecedes(
                rhs.sortedHeaders.map { "\($0.name)=\($0.value)" })
        }
    }

    /// The request fields that select `variant`, as the admin output shows them: credential
    /// values (`Authorization`, `Cookie`) are replaced by `[hidden]`.
    static func displayedFields(of variant: ResourceKey) -> [String: String] {
        Dictionary(
            variant.sortedHeaders.map { ($0.name, credentialFields.contains($0.name) ? "[hidden]" : $0.value) }
        ) { first, _ in first }
    }

    /// Refreshes every key of `keys` at once; a key that fails keeps its failure in its own state.
    static func refreshAll(
        _ keys: [ResourceKey], in repository: Repository<ResourceKey, Representation>
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for key in keys {
                group.addTask { _ = try? await repository.refresh(key) }
            }
        }
    }
}
