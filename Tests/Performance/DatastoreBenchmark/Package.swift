// swift-tools-version:6.0
// The datastore benchmark: its own package so the root manifest keeps no dependencies.
// Run it with ../datastore-bench.sh (release build).
import PackageDescription

let package = Package(
    name: "DatastoreBenchmark",
    dependencies: [.package(name: "rds-gateway", path: "../../..")],
    targets: [
        .executableTarget(
            name: "DatastoreBenchmark",
            dependencies: [.product(name: "RDS", package: "rds-gateway")],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
