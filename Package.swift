// swift-tools-version:6.0
import PackageDescription

/// Every Swift target builds in the Swift 6 language mode with these upcoming features (see STYLE).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Pinhole",
    products: [
        .library(name: "Pinhole", targets: ["Pinhole"]),
        .library(name: "PinholeVips", targets: ["PinholeVips"]),
        .library(name: "PinholeTestServer", targets: ["PinholeTestServer"]),
        .executable(name: "pinhole", targets: ["pinhole"]),
    ],
    targets: [
        // The pipeline: pure Swift, no C imports, so an ImageIO decoder can be added for Apple platforms.
        .target(name: "Pinhole", swiftSettings: strictSettings),

        // libvips headers and linking, found through pkg-config (Debian: libvips-dev).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // Fixed-argument wrappers over libvips' variadic calls and macros (Swift cannot call either).
        .target(name: "CPinholeVips", dependencies: ["CVips"]),
        // libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev): the JPEG fast path and the benchmark's floor.
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        // libjpeg's API (Debian: libjpeg62-turbo-dev): DC-only decoding of progressive JPEGs needs block smoothing
        // off, which TurboJPEG cannot do; CPinholeJPEG owns every setjmp/longjmp. pkg-config gives the C shim -ljpeg.
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(name: "CPinholeJPEG", dependencies: ["CLibJPEG"]),
        // VipsDecoder: shrink-on-load thumbnails, orientation, sRGB, limits, encoders; TurboJPEG fast path.
        .target(
            name: "PinholeVips",
            dependencies: ["Pinhole", "CPinholeVips", "CTurboJPEG", "CPinholeJPEG"],
            swiftSettings: strictSettings
        ),

        // Loopback HTTP/1.1 server with latency and fault injection, for tests, benchmarks and the demo.
        .target(name: "PinholeTestServer", dependencies: ["Pinhole"], swiftSettings: strictSettings),

        // The terminal gallery: JSON Feed model, feed screen model, terminal renderer and the app.
        .target(
            name: "PinholeGallery",
            dependencies: ["Pinhole", "PinholeVips", "PinholeTestServer"],
            swiftSettings: strictSettings
        ),

        // Benchmarks (a small harness of our own: warm-up, median of N, reference measured in the same run).
        .target(
            name: "PinholeBench",
            dependencies: ["Pinhole", "PinholeVips", "PinholeTestServer", "CTurboJPEG", "CPinholeVips"],
            swiftSettings: strictSettings
        ),

        // libFuzzer target for the decode path (scripts/fuzz.sh); a plain build makes it a replayer of inputs.
        .executableTarget(name: "PinholeFuzz", dependencies: ["Pinhole", "PinholeVips"], swiftSettings: strictSettings),

        .executableTarget(
            name: "pinhole",
            dependencies: ["Pinhole", "PinholeVips", "PinholeTestServer", "PinholeBench", "PinholeGallery"],
            swiftSettings: strictSettings
        ),

        .testTarget(name: "PinholeTests", dependencies: ["Pinhole"], swiftSettings: strictSettings),
        .testTarget(
            name: "PinholeVipsTests",
            dependencies: ["PinholeVips", "Pinhole"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeIntegrationTests",
            dependencies: ["Pinhole", "PinholeVips", "PinholeTestServer"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeGalleryTests",
            dependencies: ["PinholeGallery", "Pinhole", "PinholeTestServer"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeTestServerTests",
            dependencies: ["PinholeTestServer"],
            swiftSettings: strictSettings
        ),
        // The scroll reproduction scaled down (invariants only), the frame statistics and the scroll script.
        .testTarget(
            name: "PinholeBenchTests",
            dependencies: ["PinholeBench", "Pinhole", "PinholeTestServer"],
            swiftSettings: strictSettings
        ),
        // Unit tests of the CLI's logic (@testable import pinhole) and end-to-end runs of the built binary.
        .testTarget(
            name: "PinholeCLITests",
            dependencies: ["pinhole", "Pinhole", "PinholeBench", "PinholeTestServer"],
            swiftSettings: strictSettings
        ),
    ]
)
