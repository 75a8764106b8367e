import CPinholeVips
import Foundation
import Pinhole

/// Untrusted decoding: which libvips loader may read which sniffed format, and the turn it runs in.
extension VipsDecoder {
    /// The only libvips loader each format may be read with when the bytes are untrusted.
    ///
    /// libvips picks a loader from magic bytes on its own (`vips_foreign_find_load_buffer`), falling back to
    /// ImageMagick (`magickload_buffer`, which libvips itself marks untrusted) for anything its own loaders refuse,
    /// a cut-short TIFF included. Under an untrusted policy the loader must be the one listed here for the format
    /// Pinhole sniffed, and the format must be in ``DecodingOptions/untrustedFormats``.
    static let untrustedLoaders: [ImageFormat: String] = [
        .jpeg: "jpegload_buffer", .png: "pngload_buffer", .gif: "gifload_buffer", .webp: "webpload_buffer",
        .heif: "heifload_buffer", .avif: "heifload_buffer", .tiff: "tiffload_buffer", .svg: "svgload_buffer",
    ]

    /// The loader libvips picks for `data`, and whether libvips marks it untrusted; `nil` when none claims it.
    static func loader(for data: Data) -> (name: String, isUntrusted: Bool)? {
        var name = [CChar](repeating: 0, count: 64)
        var untrusted: Int32 = 0
        let status = data.withUnsafeBytes { CPinholeVips_find_loader($0.baseAddress, $0.count, &name, 64, &untrusted) }
        guard status == 0 else { return nil }
        return (String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), untrusted != 0)
    }

    /// Runs `body` (which loads `data` with libvips) under the source's policy.
    ///
    /// Trusted (`untrustedFormats == nil`): as before; only a loader libvips marks untrusted waits for its turn in
    /// ``UntrustedLoaderGate`` (no untrusted decode runs meanwhile). Untrusted: the sniffed format must be allowed
    /// and libvips' loader must be that format's (``untrustedLoaders``), checked before any loader reads more than
    /// the magic bytes; `body` then runs with libvips' untrusted operations blocked.
    ///
    /// - Throws: ``PinholeError/Code/unsupportedFormat`` saying why, or ``PinholeError/Code/truncated`` when a
    ///   refused loader was picked only because the data of an allowed format ends early; what `body` throws.
    static func withLoaderPolicy<T>(
        _ data: Data, format: ImageFormat, untrustedFormats: Set<ImageFormat>?, interruption: DecodeInterruption?,
        _ body: () throws -> T
    ) throws -> T {
        guard let allowed = untrustedFormats else {
            guard let loader = loader(for: data), loader.isUntrusted else { return try body() }
            return try UntrustedLoaderGate.shared.run(as: .trustedUntrustedLoader, interruption: interruption, body)
        }
        guard allowed.contains(format) else {
            let names = allowed.map(\.displayName).sorted().joined(separator: ", ")
            throw PinholeError(
                .unsupportedFormat,
                "\(format.displayName) is not decoded from untrusted sources (allowed: \(names))",
                detectedType: format.name)
        }
        guard let expected = untrustedLoaders[format] else {
            throw PinholeError(
                .unsupportedFormat,
                "\(format.displayName) has no libvips loader of its own fit for untrusted sources",
                detectedType: format.name)
        }
        let picked = loader(for: data)?.name
        guard picked == expected else {
            if truncationEvidence(data, format: format, interruption: interruption) == .endsEarly {
                throw PinholeError(.truncated, "\(format.name) data ends early", detectedType: format.name)
            }
            throw PinholeError(
                .unsupportedFormat,
                "libvips would read this \(format.name) data with \(picked ?? "no loader"), not \(expected); "
                    + "untrusted sources are read only with their format's own loader",
                detectedType: format.name)
        }
        return try UntrustedLoaderGate.shared.run(as: .untrusted, interruption: interruption, body)
    }
}
