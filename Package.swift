// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rds-gateway",
    products: [
        .library(name: "RDS", targets: ["RDS"]),
        .library(name: "Sockets", targets: ["Sockets"]),
        .library(name: "HTTP1", targets: ["HTTP1"]),
        .library(name: "Redis", targets: ["Redis"]),
        .library(name: "HTTPCaching", targets: ["HTTPCaching"]),
        .library(name: "RDSTesting", targets: ["RDSTesting"]),
        .executable(name: "rds-gateway", targets: ["rds-gateway"]),
    ],
    targets: [
        .target(name: "RDS"),
        .target(name: "Sockets"),
        .target(name: "HTTP1", dependencies: ["Sockets"]),
        .target(name: "Redis", dependencies: ["Sockets"]),
        .target(name: "HTTPCaching", dependencies: ["HTTP1"]),
        .target(name: "Gateway", dependencies: ["RDS", "Sockets", "HTTP1", "HTTPCaching", "Redis"]),
        .target(name: "RDSTesting", dependencies: ["RDS"]),
        .executableTarget(name: "rds-gateway", dependencies: ["Gateway"]),
        .testTarget(name: "RDSTests", dependencies: ["RDS", "RDSTesting"]),
        .testTarget(name: "SocketsTests", dependencies: ["Sockets"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "Sockets", "RDSTesting"]),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "Sockets"]),
        .testTarget(name: "HTTPCachingTests", dependencies: ["HTTPCaching", "HTTP1"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "HTTPCaching", "RDS", "Sockets", "HTTP1", "Redis", "RDSTesting"]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ]
}

// Release builds let generic code of one module (RDS's repository and datastores, HTTP1's
// server) be specialised in the modules that use it, instead of going through runtime generic
// metadata on every request, and check exclusive access to variables at compile time only:
// the run-time check of each access to a class's stored `var` (an event loop's or a
// connection's state, about twenty per request) stays in debug builds, which the tests run
// (see README, Performance). Without type layouts, IRGen destroys and copies an optional of a
// struct with one reference and a few plain words (a cache entry, a repository answer) in
// place; with them it went through the runtime's generic `Optional` witnesses and the type's
// metadata (~600 instructions per cache hit, ~2-4 k on the other paths).
for target in package.targets where target.type != .test {
    target.swiftSettings! += [
        .unsafeFlags(
            ["-cross-module-optimization", "-enforce-exclusivity=unchecked", "-Xfrontend", "-disable-type-layout"],
            .when(configuration: .release))
    ]
}
