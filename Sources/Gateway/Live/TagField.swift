import HTTP1

/// Reads the tags an upstream names in an answer's tag field (`Surrogate-Key: a b`,
/// `Cache-Tag: a,b`): spaces and commas separate tags, duplicates count once, and at most
/// ``maxTags`` tags of at most ``maxTagBytes`` bytes each are kept.
enum TagField {
    /// The most tags read from one answer.
    static let maxTags = 64
    /// The longest tag kept, in bytes.
    static let maxTagBytes = 256

    /// The tags `representation` names in `field`, in their order: none, without a look at its
    /// fields, when its replay facts tell that it has no such field (most answers name no tags,
    /// and this runs on every save and renewal).
    static func tags(in representation: Representation, field: String) -> [String] {
        guard representation.replayFacts.mayHold(field) else { return [] }
        var seen = Set<String>()
        var tags: [String] = []
        for value in representation.headers.values(for: field) {
            for tag in value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
                let tag = String(tag)
                guard tags.count < maxTags, tag.utf8.count <= maxTagBytes, seen.insert(tag).inserted else { continue }
                tags.append(tag)
            }
        }
        return tags
    }
}
