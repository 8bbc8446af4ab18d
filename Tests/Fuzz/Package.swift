// swift-tools-version:6.0
// The parser fuzz target: a package of its own so the root manifest keeps no dependencies and
// no fuzz settings. Build and run with ./run-fuzz.sh SECONDS.
import PackageDescription

/// A path dependency's identity is its folder's name (`main`, a worktree's name, …): read it from this file's path.
let rootFolder = #filePath.split(separator: "/").dropLast(3).last.map(String.init) ?? "rds-gateway"

let package = Package(
    name: "HTTP1Fuzz",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "HTTP1Fuzz",
            dependencies: [.product(name: "HTTP1", package: rootFolder)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
