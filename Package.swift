// swift-tools-version:6.1
import PackageDescription

/// touchd: a Linux input-device bridge daemon with UIKit's touch semantics.
///
/// Layering (each module depends only on those above it):
/// - `TouchCore`: the pure core (geometry, touches, events, view tree, hit-testing, responder chain,
///   the application event queue). Standard library only: no I/O, no clock, no globals.
/// - `TouchEvdev`: pure evdev decoding (codes, device descriptions and kinds, recordings, frame
///   assembly, key and accelerometer decoding, mapping into window points).
/// - `TouchLayout`: the TOML layout file, validated into core values (key names from `TouchEvdev`).
/// - `TouchInput`: pure input pipelines from kernel events to the application's events (touch,
///   key and motion devices), device matching, recording replay, retry and log-limiting policies.
/// - `TouchSystem`: the one operating-system boundary (system calls, their errors, the monotonic
///   clock, the event loop with its timers and signals, whole-file reading, Unix socket addresses).
/// - `TouchDevices`: the I/O shell around libevdev and libudev, and the device watcher.
/// - `TouchProtocol`: the socket protocol: JSON text (one reader, one writer), line framing, and the
///   messages and requests (newline-delimited JSON).
/// - `TouchDaemon`: the input sources, the socket server and the input-to-dispatch pipeline.
/// (`docs/architecture.md` has the module map and one frame's path through it.)
/// - `TouchRender`: pictures of a layout and its touches (SVG).
/// - `touchd`: the command-line tool and daemon.
/// - `touchd-bench`: in-process benchmarks that print figures (`make bench`).
/// - `TouchFuzzing`, `touchd-fuzz`: the fuzzing targets and their libFuzzer entry point
///   (`scripts/fuzz.sh`; the test suite replays their committed corpus).
let package = Package(
    name: "touchd",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "touchd", targets: ["touchd"]),
        .executable(name: "touchctl", targets: ["touchctl"]),
        .library(name: "TouchCore", targets: ["TouchCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", exact: "1.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CEvdev", path: "Sources/CEvdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(
            name: "CUdev", path: "Sources/CUdev", pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]),
        // libinput-record recordings are YAML, read with the system's libyaml.
        .systemLibrary(
            name: "CYAML", path: "Sources/CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        .target(name: "TouchSystem", dependencies: ["TouchCore", "CLinux"]),
        .target(name: "TouchCore"),
        .target(name: "TouchEvdev", dependencies: ["TouchCore", "CYAML"]),
        .target(
            name: "TouchLayout",
            dependencies: ["TouchCore", "TouchEvdev", "TouchSystem", "CTOMLSupport", .product(name: "TOMLKit", package: "TOMLKit")]),
        .target(name: "TouchInput", dependencies: ["TouchCore", "TouchEvdev", "TouchLayout"]),
        .target(name: "TouchDevices", dependencies: ["TouchCore", "TouchEvdev", "TouchInput", "TouchSystem", "CEvdev", "CUdev"]),
        .target(name: "CLinux"),
        .target(name: "CTOMLSupport"),
        // The WebSocket handshake's SHA-1 comes from Debian's libmd, its base64 from swift-extras-base64.
        .systemLibrary(name: "CMd", path: "Sources/CMd", pkgConfig: "libmd", providers: [.apt(["libmd-dev"])]),
        .target(
            name: "TouchProtocol",
            dependencies: ["TouchCore", "TouchEvdev", "CMd", .product(name: "ExtrasBase64", package: "swift-extras-base64")]),
        .target(name: "TouchRender", dependencies: ["TouchCore"]),
        .target(
            name: "TouchDaemon",
            dependencies: [
                "TouchCore", "TouchEvdev", "TouchInput", "TouchLayout", "TouchDevices", "TouchProtocol", "TouchRender", "TouchSystem", "CLinux",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "touchd",
            dependencies: [
                "TouchCore", "TouchEvdev", "TouchInput", "TouchLayout", "TouchDevices", "TouchProtocol", "TouchDaemon", "TouchRender", "TouchSystem",
                "TouchControl", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The static Swift runtime's link arguments export every symbol, which keeps each of
            // them (and all it reaches) through --gc-sections: nothing loads this binary's symbols.
            // GNU ld packs the position-independent binary's relative relocations (DT_RELR, glibc
            // 2.36 and later: Debian 12), which gold writes out one by one (1.1 MB of them).
            // A release link puts the functions a started daemon runs first and together (see the
            // end of this file).
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--no-export-dynamic", "-use-ld=bfd", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]),
                .unsafeFlags(["-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/link/hot-code.ld"], .when(configuration: .release)),
            ]),
        // Benchmarks for `make bench`: built by `swift build` too, but small.
        .executableTarget(
            name: "touchd-bench",
            dependencies: ["TouchCore", "TouchEvdev", "TouchInput", "TouchLayout", "TouchProtocol", "TouchDaemon", "TouchRender", "TouchSystem"]),
        .target(name: "CFuzzSupport"),
        .target(
            name: "TouchFuzzing",
            dependencies: ["TouchCore", "TouchEvdev", "TouchLayout", "TouchProtocol", "TouchDaemon", "TouchSystem", "CFuzzSupport"]),
        // Built by `swift build` as a plain replayer; scripts/fuzz.sh builds it with libFuzzer.
        .executableTarget(name: "touchd-fuzz", dependencies: ["TouchFuzzing", "TouchSystem"]),
        // The client's commands: `touchctl` in development, and in the installed `touchd` binary,
        // which runs them when invoked as `touchctl` (one binary for the daemon and its client).
        .target(
            name: "TouchControl",
            dependencies: [
                "TouchCore", "TouchEvdev", "TouchProtocol", "TouchSystem", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "touchctl", dependencies: ["TouchControl"]),
        .testTarget(
            name: "TouchCoreTests",
            dependencies: [
                "TouchCore", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "TouchEvdevTests", dependencies: ["TouchEvdev", "TouchCore"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "TouchEvdev", "TouchCore", "TouchLayout"]),
        .testTarget(name: "TouchLayoutTests", dependencies: ["TouchLayout", "TouchCore"]),
        .testTarget(name: "TouchDevicesTests", dependencies: ["TouchDevices", "TouchEvdev", "TouchInput", "TouchSystem"]),
        .testTarget(name: "TouchSystemTests", dependencies: ["TouchSystem", "TouchCore"]),
        .testTarget(name: "TouchProtocolTests", dependencies: ["TouchProtocol", "TouchCore", "TouchEvdev"]),
        .testTarget(name: "TouchRenderTests", dependencies: ["TouchRender", "TouchCore", "TouchLayout", "TouchInput", "TouchDaemon"]),
        .testTarget(name: "TouchFuzzingTests", dependencies: ["TouchFuzzing", "TouchEvdev", "TouchCore"]),
        .testTarget(
            name: "TouchDaemonTests",
            dependencies: ["TouchDaemon", "TouchInput", "TouchProtocol", "TouchCore", "TouchEvdev", "TouchLayout", "TouchSystem"]),
    ]
)

// Release builds put each function in a section of its own: the linker drops the functions nothing
// calls, and the daemon's link (`touchd`'s linker settings) puts the functions a started daemon
// runs side by side (link/hot-code.ld, written by scripts/hot-code.sh from a profile).
//
// Release builds also leave exclusivity to the compiler's static checks, as the standard library's
// own build does: the run-time checks of each access to a class's stored property cost 6 to 9% of
// the daemon's instructions per frame (docs/performance.md). Debug builds, which every test run
// uses, keep them, and so do the fuzzers' release builds (scripts/fuzz.sh sets
// TOUCHD_EXCLUSIVITY_CHECKS).
let releaseSwiftFlags =
    ["-Xfrontend", "-function-sections", "-cross-module-optimization"]
    + (Context.environment["TOUCHD_EXCLUSIVITY_CHECKS"] == nil ? ["-enforce-exclusivity=unchecked"] : [])
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(releaseSwiftFlags, .when(configuration: .release))]
    target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-ffunction-sections"], .when(configuration: .release))]
}
