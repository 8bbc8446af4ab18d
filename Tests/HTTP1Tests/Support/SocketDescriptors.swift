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

    /// Connections waiting in the accept queue of the listening socket on local `port`: the
    /// kernel completes handshakes (and keeps connections reset meanwhile) there until the
    /// server accepts them, so they are neither descriptors nor open connections yet.
    static func pendingAccepts(port: Int) throws -> Int {
        var pending = 0
        for columns in try socketRows() where columns[3] == "0A" && ports(of: columns).local == port {
            // For a listening socket, `rx_queue` (after the colon) is the accept queue's length.
            pending += columns[4].split(separator: ":").last.flatMap { Int($0, radix: 16) } ?? 0
        }
        return pending
    }

    /// Inodes of TCP sockets (IPv4 and IPv6) with `port` at either end.
    private static func socketInodes(port: Int) throws -> Set<Int> {
        var inodes = Set<Int>()
        for columns in try socketRows() {
            guard let inode = Int(columns[9]), inode != 0 else { continue }
            let (local, remote) = ports(of: columns)
            if local == port || remote == port { inodes.insert(inode) }
        }
        return inodes
    }

    /// The rows of `/proc/net/tcp` and `/proc/net/tcp6`, split into columns (at least 10).
    private static func socketRows() throws -> [[Substring]] {
        var rows: [[Substring]] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = try readWholeFile(table)
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ")
                if columns.count > 9 { rows.append(columns) }
            }
        }
        return rows
    }

    /// The local and remote ports of a row (`address:port` in hexadecimal).
    private static func ports(of columns: [Substring]) -> (local: Int?, remote: Int?) {
        let ports = [columns[1], columns[2]].map { $0.split(separator: ":").last.flatMap { Int($0, radix: 16) } }
        return (ports[0], ports[1])
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
