import Foundation
import HTTP1
import RDS
import RDSTesting
import Testing

@testable import Gateway

struct TagIndexTests {
    private func key(_ id: String) -> ResourceKey { ResourceKey(repository: "items", path: "/items/\(id)") }

    @Test func tagField_SplitsOnSpacesAndCommas_OnceEach() {
        let answer = Representation(status: 200, headers: ["Surrogate-Key": "a b  a", "Cache-Tag": "x,y, z"])
        #expect(TagField.tags(in: answer, field: "Surrogate-Key") == ["a", "b"])
        #expect(TagField.tags(in: answer, field: "cache-tag") == ["x", "y", "z"])
        #expect(TagField.tags(in: answer, field: "X-None").isEmpty)
    }

    /// The field is found in any case beside a name the replay facts do not tell from it (the
    /// same length and first letter), which names no tags of the field.
    @Test func tagField_FindsTheField_InAnyCase_BesideALookalike() {
        let lookalike = Representation(status: 200, headers: ["surrogate-kez": "a", "SURROGATE-KEY": "b"])
        #expect(TagField.tags(in: lookalike, field: "Surrogate-Key") == ["b"])
        let onlyLookalike = Representation(status: 200, headers: ["Surrogate-Kez": "a"])
        #expect(TagField.tags(in: onlyLookalike, field: "Surrogate-Key").isEmpty)
        #expect(TagField.tags(in: Representation(status: 200), field: "Surrogate-Key").isEmpty)
    }

    @Test func index_FindsKeysByTag_AndForgetsReplacedAndRemovedOnes() {
        let index = TagIndex(maxEntries: 100)
        index.set(["red", "big"], for: key("1"))
        index.set(["red"], for: key("2"))
        #expect(index.keys(taggedWith: "red") == [key("1"), key("2")])
        index.set(["blue"], for: key("1"))
        #expect(index.keys(taggedWith: "red") == [key("2")])
        #expect(index.keys(taggedWith: "big").isEmpty)
        index.remove(key("2"))
        #expect(index.keys(taggedWith: "red").isEmpty)
        #expect(index.count == 1)
        index.removeAll()
        #expect(index.count == 0)
    }

    @Test func index_StaysWithinItsBound() {
        let index = TagIndex(maxEntries: 10)
        for id in 0..<20 { index.set(["t\(id)", "all"], for: key("\(id)")) }
        #expect(index.count <= 10)
        #expect(index.forgottenCount == 15)
        #expect(index.keys(taggedWith: "all").count == 5)
    }

    @Test func taggingDatastore_IndexesWhatIsStored_AndForgetsWhatIsGone() async throws {
        let memory = MemoryDatastore<ResourceKey, Representation>(maxBytes: 1 << 20, maxEntries: 100)
        let index = TagIndex(maxEntries: 100)
        let tagging = TaggingDatastore(wrapping: memory, index: index, field: "Surrogate-Key")
        let entry = CacheEntry(
            value: Representation(status: 200, headers: ["Surrogate-Key": "red blue"]), storedAt: Date(),
            expiresAt: Date() + 60)
        try await tagging.save(entry, for: key("1"))
        #expect(index.keys(taggedWith: "blue") == [key("1")])
        await memory.delete(key("1"))
        #expect(try await tagging.get(key("1")) == nil)
        #expect(index.keys(taggedWith: "blue").isEmpty)
    }

    /// A tagging datastore (indexing `Surrogate-Key`) over memory in front of `disk`, and its index.
    private static func tagging(
        overMemoryAnd disk: FileDatastore<ResourceKey, Representation>
    ) -> (TaggingDatastore, TagIndex) {
        let levels = RepositoryLevels(
            memory: MemoryDatastore(maxBytes: 1 << 20, maxEntries: 100), disk: disk, shared: nil,
            logger: RecordingLogger())
        let index = TagIndex(maxEntries: 100)
        return (TaggingDatastore(wrapping: levels, index: index, field: "Surrogate-Key"), index)
    }

    /// A fresh entry tagged `red`.
    private static func redEntry() -> CacheEntry<Representation> {
        CacheEntry(
            value: Representation(status: 200, headers: ["Surrogate-Key": "red"]), storedAt: Date(),
            expiresAt: Date() + 60)
    }

    /// A renewal reaches the disk level as a renewal (written behind: a broken disk folder does
    /// not fail it, where a save reports the second level's failure) and re-indexes the tags.
    @Test func taggingDatastore_PassesARenewalToTheDiskLevel_AndIndexesItsTags() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try FileDatastore<ResourceKey, Representation>(directory: folder)
        try FileManager.default.removeItem(at: folder)
        try Data("in the way".utf8).write(to: folder)
        let (tagging, index) = Self.tagging(overMemoryAnd: disk)
        let entry = Self.redEntry()

        await #expect(throws: DatastoreError.self) { try await tagging.save(entry, for: key("1")) }
        try await tagging.renew(entry, for: key("2"))
        await disk.finishWrites()

        #expect(index.keys(taggedWith: "red") == [key("2")])
        #expect(disk.statistics.writeFailures == 2)
        #expect(tagging.peek(key("2")) == entry)
    }

    /// A renewal taken without suspending reaches memory and the disk level (written behind) and
    /// re-indexes the tags, as the async renewal does.
    @Test func taggingDatastore_RenewsInPlace_InMemoryAndOnDisk_AndIndexesItsTags() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try FileDatastore<ResourceKey, Representation>(directory: folder)
        let (tagging, index) = Self.tagging(overMemoryAnd: disk)
        let entry = Self.redEntry()

        #expect(tagging.renewInPlace(entry, for: key("1")))
        await disk.finishWrites()

        #expect(index.keys(taggedWith: "red") == [key("1")])
        #expect(tagging.peek(key("1")) == entry)
        #expect(try await FileDatastore<ResourceKey, Representation>(directory: folder).get(key("1")) == entry)
    }

    /// A revalidation's renewal taken without suspending reaches memory and re-indexes the tags;
    /// the disk level, which wrote the key's file just before, keeps that write.
    @Test func taggingDatastore_RenewsARevalidationInMemory_TheDiskKeepingItsRecentWrite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try FileDatastore<ResourceKey, Representation>(directory: folder)
        let (tagging, index) = Self.tagging(overMemoryAnd: disk)
        let first = Self.redEntry()
        try await tagging.save(first, for: key("1"))
        var renewed = first
        renewed.expiresAt += 60

        #expect(tagging.renewRevalidatedInPlace(renewed, for: key("1")))
        await disk.finishWrites()

        #expect(index.keys(taggedWith: "red") == [key("1")])
        #expect(tagging.peek(key("1")) == renewed)
        #expect(try await FileDatastore<ResourceKey, Representation>(directory: folder).get(key("1")) == first)
    }
}
