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
        .library(name: "PinholeCurl", targets: ["PinholeCurl"]),
        .library(name: "PinholeVips", targets: ["PinholeVips"]),
        .library(name: "PinholeServer", targets: ["PinholeServer"]),
        .library(name: "PinholeTestServer", targets: ["PinholeTestServer"]),
        .executable(name: "pinhole", targets: ["pinhole"]),
    ],
    targets: [
        // The pipeline: no C (the decoder and the HTTP loader are injected, so ImageIO and URLSession can serve
        // on Apple platforms).
        .target(name: "Pinhole", swiftSettings: strictSettings),
        // HTTP(S) through libcurl's multi interface: the loader the Linux assembly supplies.
        .target(
            name: "PinholeCurl", dependencies: ["Pinhole", "CCurl", "CPinholeCurl"], swiftSettings: strictSettings),
        // libcurl headers and linking, found through pkg-config (Debian: libcurl4-openssl-dev).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Fixed-argument wrappers over libcurl's variadic setopt/getinfo calls, and the socket-open helpers.
        .target(name: "CPinholeCurl", dependencies: ["CCurl"]),

        // libvips headers and linking, found through pkg-config (Debian: libvips-dev).
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // Fixed-argument wrappers over libvips' variadic calls and macros (Swift cannot call either).
        .target(name: "CPinholeVips", dependencies: ["CVips"]),
        // Truncation evidence from the codec libraries themselves, and whether a WebP is lossless (Debian: libgif-dev,
        // libwebp-dev, libheif-dev).
        .target(
            name: "CPinholeCodecs",
            linkerSettings: [
                .linkedLibrary("gif"), .linkedLibrary("webp"), .linkedLibrary("webpdemux"), .linkedLibrary("heif"),
            ]
        ),
        // libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev): the JPEG fast path and the benchmark's floor.
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        // libjpeg's API (Debian: libjpeg62-turbo-dev): DC-only decoding of progressive JPEGs needs block smoothing
        // off, which TurboJPEG cannot do; CPinholeJPEG owns every setjmp/longjmp. pkg-config gives the C shim -ljpeg.
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(name: "CPinholeJPEG", dependencies: ["CLibJPEG"]),
        // VipsDecoder: shrink-on-load thumbnails, orientation, sRGB, limits, encoders; TurboJPEG fast path.
        .target(
            name: "PinholeVips",
            dependencies: ["Pinhole", "PinholeCurl", "CPinholeVips", "CPinholeCodecs", "CTurboJPEG", "CPinholeJPEG"],
            swiftSettings: strictSettings
        ),

        // libmicrohttpd (Debian: libmicrohttpd-dev): the HTTP/1.1 server of `pinhole serve`.
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // OpenSSL's libcrypto (Debian: libssl-dev): HMAC-SHA256 of signed URLs and CRYPTO_memcmp.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Fixed-argument wrappers over libmicrohttpd's variadic start and union-returning info calls.
        .target(name: "CPinholeServer", dependencies: ["CMicroHTTPD"]),
        // `pinhole serve`: imgproxy-style processing URLs over libmicrohttpd in front of the pipeline.
        .target(
            name: "PinholeServer",
            dependencies: ["Pinhole", "PinholeCurl", "PinholeVips", "CMicroHTTPD", "CPinholeServer", "COpenSSL"],
            swiftSettings: strictSettings
        ),

        // Loopback HTTP/1.1 server with latency and fault injection, for tests, benchmarks and the demo.
        .target(name: "PinholeTestServer", swiftSettings: strictSettings),

        // libchafa (Debian: libchafa-dev): pictures for terminals as symbols, sixel, kitty or iTerm2 images.
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        // Hands libchafa's printed GString to Swift as plain bytes (GLib's headers are not a Clang module).
        .target(name: "CPinholeChafa", dependencies: ["CChafa"]),
        // The terminal gallery: JSON Feed model, feed screen model, terminal renderer and the app.
        .target(
            name: "PinholeGallery",
            dependencies: ["Pinhole", "PinholeCurl", "PinholeVips", "CChafa", "CPinholeChafa"],
            swiftSettings: strictSettings
        ),

        // Benchmarks (a small harness of our own: warm-up, median of N, reference measured in the same run).
        .target(
            name: "PinholeBench",
            dependencies: ["Pinhole", "PinholeCurl", "PinholeVips", "PinholeTestServer"],
            swiftSettings: strictSettings
        ),

        // libFuzzer target for the decode path (scripts/fuzz.sh); a plain build makes it a replayer of inputs.
        .executableTarget(
            name: "PinholeFuzz", dependencies: ["Pinhole", "PinholeVips"], swiftSettings: strictSettings),

        .executableTarget(
            name: "pinhole",
            dependencies: [
                "Pinhole", "PinholeCurl", "PinholeVips", "PinholeTestServer", "PinholeBench", "PinholeGallery",
                "PinholeServer",
            ],
            swiftSettings: strictSettings
        ),

        // What every test target shares: load-scaled waits, blocking work on threads of its own, child processes
        // (Tests/README.md says how to write a test here).
        .target(name: "PinholeTestSupport", path: "Tests/Support", swiftSettings: strictSettings),
        // The test kit every target's tests share: the one fake loader, fake decoder and temporary directory.
        .target(
            name: "PinholeTestFakes", dependencies: ["Pinhole"], path: "Tests/Fakes", swiftSettings: strictSettings),

        .testTarget(
            name: "PinholeTests",
            dependencies: ["Pinhole", "PinholeCurl", "PinholeTestSupport", "PinholeTestFakes"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeVipsTests",
            dependencies: ["PinholeVips", "Pinhole", "PinholeTestSupport", "PinholeTestFakes"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeIntegrationTests",
            dependencies: [
                "Pinhole", "PinholeCurl", "PinholeVips", "PinholeTestServer", "PinholeTestSupport", "PinholeTestFakes",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeGalleryTests",
            dependencies: [
                "PinholeGallery", "Pinhole", "PinholeTestServer", "PinholeTestSupport", "PinholeTestFakes",
                "PinholeVips",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PinholeTestServerTests",
            dependencies: ["PinholeTestServer", "PinholeTestSupport"],
            swiftSettings: strictSettings
        ),
        // The server on a real loopback port against a real origin, with URLSession as the client.
        .testTarget(
            name: "PinholeServerTests",
            dependencies: [
                "PinholeServer", "Pinhole", "PinholeTestServer", "PinholeTestSupport", "PinholeTestFakes",
                "PinholeVips",
            ],
            swiftSettings: strictSettings
        ),
        // The scroll reproduction scaled down (invariants only), the frame statistics and the scroll script.
        .testTarget(
            name: "PinholeBenchTests",
            dependencies: [
                "PinholeBench", "Pinhole", "PinholeCurl", "PinholeVips", "PinholeTestServer", "PinholeTestSupport",
                "PinholeTestFakes",
            ],
            swiftSettings: strictSettings
        ),
        // Unit tests of the CLI's logic (@testable import pinhole) and end-to-end runs of the built binary.
        .testTarget(
            name: "PinholeCLITests",
            dependencies: [
                "pinhole", "Pinhole", "PinholeBench", "PinholeTestServer", "PinholeTestSupport", "PinholeTestFakes",
                "PinholeVips", "PinholeCurl",
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// What several modules share (Sources/PinholeShared: the lock, the repeating timer, the stable hash, the /proc
// reader): toolchain modules only, no C, not a product. Its API is `package`, and `Pinhole` imports it
// internally, so it is no part of Pinhole's public API. Declared here with every module that uses it.
package.targets.append(.target(name: "PinholeShared", swiftSettings: strictSettings))
let usersOfShared: Set = [
    "Pinhole", "PinholeCurl", "PinholeServer", "PinholeTestServer", "PinholeGallery", "PinholeBench", "pinhole",
    "PinholeTestSupport", "PinholeTestFakes", "PinholeTests", "PinholeVipsTests", "PinholeIntegrationTests",
    "PinholeGalleryTests",
    "PinholeCLITests", "PinholeServerTests",
]
for target in package.targets where usersOfShared.contains(target.name) {
    target.dependencies.append("PinholeShared")
}
