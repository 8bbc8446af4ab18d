import Foundation
import Synchronization

/// The demo upstream's in-memory notes: the read-write resource behind `/notes/{id}`.
final class DemoNotes: Sendable {
    private let notes = Mutex<[String: DemoNote]>([:])

    /// The note with `id`, if any.
    func note(_ id: String) -> DemoNote? { notes.withLock { $0[id] } }

    /// Replaces (or creates) the note; returns it and whether it is new.
    func put(_ id: String, body: [UInt8], contentType: String) -> (note: DemoNote, created: Bool) {
        notes.withLock { notes in
            let revision = (notes[id]?.revision ?? 0) + 1
            let note = DemoNote(body: body, contentType: contentType, revision: revision)
            let created = notes[id] == nil
            notes[id] = note
            return (note, created)
        }
    }

    /// Merges the JSON object `patch` into the note's JSON object (RFC 7396, top level).
    /// Returns `nil` when there is no such note, and throws when either side is not a JSON object.
    func patch(_ id: String, with patch: [UInt8]) throws -> DemoNote? {
        let changes = try JSONSerialization.jsonObject(with: Data(patch)) as? [String: Any]
        return try notes.withLock { notes -> DemoNote? in
            guard var note = notes[id] else { return nil }
            guard let changes,
                var object = try JSONSerialization.jsonObject(with: Data(note.body)) as? [String: Any]
            else { throw CocoaError(.propertyListReadCorrupt) }
            for (key, value) in changes {
                if value is NSNull { object[key] = nil } else { object[key] = value }
            }
            note.body = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
            note.contentType = "application/json"
            note.revision += 1
            notes[id] = note
            return note
        }
    }

    /// Removes the note; `false` when there was none.
    func delete(_ id: String) -> Bool { notes.withLock { $0.removeValue(forKey: id) != nil } }
}
