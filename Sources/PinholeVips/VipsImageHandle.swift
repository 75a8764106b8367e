import CPinholeVips
import CVips
import Pinhole

/// Owns one reference to a `VipsImage` and releases it (`g_object_unref`) in `deinit`, on every path.
///
/// Not `Sendable`: a handle lives inside one closure on one worker thread.
final class VipsImageHandle {
    let pointer: UnsafeMutablePointer<VipsImage>

    private init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }

    deinit { CPinholeVips_unref(pointer) }

    /// Runs a shim call that produces an image through `out`, and wraps it.
    ///
    /// - Throws: `failure(message)` with libvips' error text when the call fails.
    static func make(
        failure: (String) -> PinholeError,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws -> VipsImageHandle {
        var out: UnsafeMutablePointer<VipsImage>?
        let status = call(&out)
        guard status == 0, let out else {
            if let out { CPinholeVips_unref(out) }
            throw failure(Vips.takeErrorMessage())
        }
        return VipsImageHandle(out)
    }

    /// Width in pixels.
    var width: Int { Int(CPinholeVips_width(pointer)) }
    /// Height in pixels.
    var height: Int { Int(CPinholeVips_height(pointer)) }
    /// Samples per pixel.
    var bands: Int { Int(CPinholeVips_bands(pointer)) }
}
