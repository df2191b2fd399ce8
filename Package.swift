// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "StartupKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "StartupKit", targets: ["StartupKit"]),
        .library(name: "StartupManifest", targets: ["StartupManifest"]),
        .executable(name: "startup", targets: ["startup"]),
    ],
    targets: [
        // Core library: commands, plan, orchestrator, report. Standard library and concurrency only.
        .target(name: "StartupKit"),

        // The commands.json model, its validation, its binding to StartupKit, and report exporters.
        .target(name: "StartupManifest", dependencies: ["StartupKit"]),

        // The CLI's logic (arguments, processes, rendering), a library so tests call it in-process.
        .target(name: "StartupCLI", dependencies: ["StartupKit", "StartupManifest"]),
        .executableTarget(name: "startup", dependencies: ["StartupCLI"]),

        // Benchmarks, side by side with peers: `make bench`. Never part of the tests.
        .executableTarget(name: "StartupBench", dependencies: ["StartupKit", "StartupCLI"]),

        // Tests.
        .testTarget(name: "StartupKitTests", dependencies: ["StartupKit"]),
        .testTarget(name: "StartupManifestTests", dependencies: ["StartupManifest"]),
        .testTarget(name: "StartupCLITests", dependencies: ["StartupCLI", "startup"]),
    ],
    swiftLanguageModes: [.v6]
)
