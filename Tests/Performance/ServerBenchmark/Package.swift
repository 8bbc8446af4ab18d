// swift-tools-version:6.0
// The HTTP1 server benchmark target: a release build serving a fixed 1 KiB JSON body.
// Build: swift build -c release --package-path Tests/Performance/ServerBenchmark
import PackageDescription

let package = Package(
    name: "ServerBenchmark",
    dependencies: [.package(name: "rds-gateway", path: "../../..")],
    targets: [
        .executableTarget(
            name: "ServerBenchmark",
            dependencies: [.product(name: "HTTP1", package: "rds-gateway")],
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
