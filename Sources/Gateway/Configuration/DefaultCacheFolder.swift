import Foundation

/// The disk cache folder used when `cache.disk.path` is missing or empty: one per user and per
/// configuration file, so two gateways on one host never share (and purge) each other's entries
/// unless their configurations name the same folder.
///
/// `$XDG_CACHE_HOME/rds-gateway/<config>`, else `$HOME/.cache/rds-gateway/<config>`, else
/// `/tmp/rds-gateway-<uid>/<config>`; `<config>` is the file's name without its extension and a
/// hash of its absolute path (`gateway-1a2b3c4d`), or `built-in` for the embedded default.
enum DefaultCacheFolder {
    /// The folder for the configuration read from `file` (a path, or the built-in default's name).
    static func path(forConfiguration file: String, environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg + "/rds-gateway"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.cache/rds-gateway"
        } else {
            base = "/tmp/rds-gateway-\(getuid())"
        }
        return URL(fileURLWithPath: base).appendingPathComponent(name(ofConfiguration: file)).path
    }

    /// `<file name without extension>-<8 hex digits of the absolute path's FNV-1a hash>`, or `built-in`.
    static func name(ofConfiguration file: String) -> String {
        guard file != DefaultConfiguration.name else { return "built-in" }
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let stem = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
        let safe = String(stem.unicodeScalars.map { Self.isSafe($0) ? Character($0) : "_" }.prefix(64))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash >> 32, radix: 16)
        return "\(safe.isEmpty ? "config" : safe)-\(String(repeating: "0", count: 8 - digits.count))\(digits)"
    }

    private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
    }
}
