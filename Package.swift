// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rds-gateway",
    products: [
        .library(name: "RDS", targets: ["RDS"]),
        .library(name: "HTTP1", targets: ["HTTP1"]),
        .library(name: "HTTPCaching", targets: ["HTTPCaching"]),
        .library(name: "RDSTesting", targets: ["RDSTesting"]),
        .executable(name: "rds-gateway", targets: ["rds-gateway"]),
    ],
    targets: [
        .target(name: "RDS"),
        .target(name: "HTTP1"),
        .target(name: "HTTPCaching", dependencies: ["HTTP1"]),
        .target(name: "Gateway", dependencies: ["RDS", "HTTP1", "HTTPCaching"]),
        .target(name: "RDSTesting", dependencies: ["RDS"]),
        .executableTarget(name: "rds-gateway", dependencies: ["Gateway"]),
        .testTarget(name: "RDSTests", dependencies: ["RDS", "RDSTesting"]),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1"]),
        .testTarget(name: "HTTPCachingTests", dependencies: ["HTTPCaching", "HTTP1"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "HTTPCaching", "RDS", "HTTP1", "RDSTesting"]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
    ]
}

// Release builds let generic code of one module (RDS's repository and datastores, HTTP1's
// server) be specialised in the modules that use it, instead of going through runtime generic
// metadata on every request (see README, Performance).
for target in package.targets where target.type != .test {
    target.swiftSettings! += [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
}
