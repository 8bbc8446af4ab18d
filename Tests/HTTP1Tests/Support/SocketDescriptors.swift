import Foundation

/// Counts this process's open socket descriptors whose local or remote port is `port`, from
/// `/proc`: a leak check that other tests running in parallel (on other ports) cannot disturb.
enum SocketDescriptors {
    /// Descriptors of this process that are TCP sockets on `port` (either end).
    static func count(port: Int) throws -> Int {
        let inodes = try socketInodes(port: port)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return descriptors.filter { descriptor in
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                target.hasPrefix("socket:["), let inode = Int(target.dropFirst(8).dropLast())
            else { return false }
            return inodes.contains(inode)
        }.count
    }

    /// Inodes of TCP sockets (IPv4 and IPv6) with `port` at either end.
    private static func socketInodes(port: Int) throws -> Set<Int> {
        var inodes = Set<Int>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = try readWholeFile(table)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                guard columns.count > 9, let inode = Int(columns[9]), inode != 0 else { continue }
                let ports = [columns[1], columns[2]].compactMap {
                    $0.split(separator: ":").last.flatMap { Int($0, radix: 16) }
                }
                if ports.contains(port) { inodes.insert(inode) }
            }
        }
        return inodes
    }

    /// Reads a `/proc` file to its end: `String(contentsOfFile:)` stops after the first page there.
    private static func readWholeFile(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty { data.append(chunk) }
        return String(decoding: data, as: UTF8.self)
    }
}
