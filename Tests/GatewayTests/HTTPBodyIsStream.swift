/// Thrown when a transport returns a streaming body where bytes were promised.
struct HTTPBodyIsStream: Error {}
