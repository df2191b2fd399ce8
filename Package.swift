// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "StartupKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "StartupKit", targets: ["StartupKit"]),
        .library(name: "StartupLifecycle", targets: ["StartupLifecycle"]),
        .library(name: "StartupManifest", targets: ["StartupManifest"]),
        .library(name: "StartupReporting", targets: ["StartupReporting"]),
        .library(name: "StartupKitTesting", targets: ["StartupKitTesting"]),
        .executable(name: "startup", targets: ["startup"]),
        .executable(name: "startup-test-server", targets: ["startup-test-server"]),
    ],
    targets: [
        // Core library: commands, plan, orchestrator, report. Standard library and concurrency only.
        .target(name: "StartupKit", dependencies: ["StartupSupport"]),

        // After launch: lifecycle events and requests delivered to modules along the start-up graph,
        // and their shutdown. Built on StartupKit; the core knows nothing of it.
        .target(name: "StartupLifecycle", dependencies: ["StartupKit", "StartupSupport"]),

        // For users' tests: a manual clock.
        .target(name: "StartupKitTesting", dependencies: ["StartupKit", "StartupSupport"]),

        // The commands.json model, its validation and its binding to StartupKit.
        .target(name: "StartupManifest", dependencies: ["StartupKit", "StartupJSON", "StartupPlatform", "StartupSupport"]),

        // Reports and what is derived from them: JSON and Chrome-trace export, saving and loading,
        // budgets, plan export, run diffs, what-if predictions, the SVG timeline.
        .target(
            name: "StartupReporting", dependencies: ["StartupKit", "StartupJSON", "StartupPlatform", "StartupSupport"]),

        // Internal: what every module shares and none owns (as NIOConcurrencyHelpers): the lock, the
        // one-shot value, the quoting of user data in messages, "did you mean" suggestions and the
        // rule for command ids. Standard library only; not a product.
        .target(name: "StartupSupport"),

        // Internal: what the C library offers that its Swift module hides (fallocate, renameat2) and the processor
        // count, for the modules that touch files and processes; not part of the core.
        .target(name: "StartupPlatform"),

        // Internal: the JSON parser, its value types and the checks both documents share (those of a
        // command id and a priority return StartupKit's types, hence the dependency).
        .target(name: "StartupJSON", dependencies: ["StartupKit", "StartupSupport"]),

        // Internal: the one seeded generator (SplitMix64) of the tests and the bench, so a seed gives the same graph in both.
        .target(name: "StartupSeededRandom"),

        // The CLI's logic (arguments, processes, rendering), a library so tests call it in-process.
        .target(
            name: "StartupCLI",
            dependencies: [
                "StartupKit", "StartupManifest", "StartupReporting", "StartupJSON", "StartupPlatform", "StartupSupport",
                "CStartupProcess",
            ]),
        // What Swift code cannot do, in C: start a child process that shares memory until its exec (Linux), and
        // handle a signal (the handler that forwards the interrupts to a pipe).
        .target(name: "CStartupProcess"),
        .executableTarget(name: "startup", dependencies: ["StartupCLI"]),

        // A tiny HTTP server for the services' tests, the bench and the dev-stack example: listens after a
        // delay, answers health checks, prints a ready line, exits on request. The C library only.
        .executableTarget(name: "startup-test-server", path: "Sources/StartupTestServer"),

        // Benchmarks, side by side with peers: `make bench`. Never part of the tests.
        .executableTarget(
            name: "StartupBench",
            dependencies: ["StartupKit", "StartupCLI", "StartupReporting", "StartupSeededRandom", "StartupSupport"]),

        // Tests.
        // What the test suites share: the mutation fuzzer, hand-made saved runs, an SVG reader, seeded
        // random graphs and a gate that orders tasks without sleeping.
        .target(
            name: "StartupTestSupport", dependencies: ["StartupKit", "StartupReporting", "StartupSeededRandom", "StartupSupport"],
            path: "Tests/StartupTestSupport"),
        .testTarget(name: "StartupSupportTests", dependencies: ["StartupSupport", "StartupSeededRandom"]),
        .testTarget(
            name: "StartupKitTests",
            dependencies: ["StartupKit", "StartupKitTesting", "StartupSeededRandom", "StartupSupport", "StartupTestSupport"]),
        .testTarget(
            name: "StartupLifecycleTests",
            dependencies: ["StartupLifecycle", "StartupKit", "StartupKitTesting", "StartupSupport", "StartupTestSupport"]),
        .testTarget(name: "StartupJSONTests", dependencies: ["StartupJSON", "StartupSeededRandom"]),
        .testTarget(
            name: "StartupManifestTests",
            dependencies: ["StartupManifest", "StartupTestSupport", "StartupSeededRandom", "StartupSupport"]),
        .testTarget(
            name: "StartupReportingTests",
            dependencies: ["StartupReporting", "StartupManifest", "StartupTestSupport", "StartupSeededRandom", "StartupKitTesting"]),
        .testTarget(
            name: "StartupCLITests",
            dependencies: [
                "StartupCLI", "CStartupProcess", "StartupReporting", "startup", "startup-test-server", "StartupSeededRandom",
                "StartupTestSupport", "StartupKitTesting", "StartupSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
