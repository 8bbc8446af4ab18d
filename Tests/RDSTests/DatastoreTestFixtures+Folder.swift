import Foundation
import Testing

@testable import RDS

extension DatastoreTestFixtures {
    /// A temporary folder for one test holding a datastore's folder `store`, removed when the test ends.
    final class Folder {
        let url: URL
        init() throws { url = try DatastoreTestFixtures.makeTemporaryDirectory() }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// The datastore's folder (not created).
        var store: URL { url.appendingPathComponent("store", isDirectory: true) }

        /// The names in the datastore's folder, sorted.
        func names() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: store.path).sorted()
        }

        /// The only file of the datastore's folder.
        func entryFile() throws -> URL {
            let names = try names()
            try #require(names.count == 1)
            return store.appendingPathComponent(names[0])
        }

        /// The size of the file `name` in the datastore's folder.
        func size(_ name: String) throws -> Int {
            let path = store.appendingPathComponent(name).path
            return try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
        }

        /// Saves `value` for `key` in `datastore` and returns the name of its entry file.
        func save(_ value: String, for key: String, in datastore: FileDatastore<String, String>) async throws
            -> String
        {
            try await datastore.save(DatastoreTestFixtures.entry(value), for: key)
            return try datastore.location(of: key).fileName
        }
    }
}
