/// Short descriptions of images: their size and layout, never their pixels (a 360 px thumbnail printed with the
/// default reflection was 360 KB of numbers).
extension PixelImage: CustomStringConvertible, CustomDebugStringConvertible {
    /// `360×240 rgb8`: width × height in pixels and the pixel format.
    public var description: String { "\(width)×\(height) \(pixelFormat.rawValue)" }

    /// `PixelImage(360×240 rgb8)`.
    public var debugDescription: String { "PixelImage(\(description))" }
}

extension DecodedImage: CustomStringConvertible, CustomDebugStringConvertible {
    /// `360×240 rgb8 of jpeg 4000×3000`: the image, then the source's format and displayed size.
    public var description: String { "\(image) of \(info)" }

    /// `DecodedImage(360×240 rgb8 of jpeg 4000×3000)`.
    public var debugDescription: String { "DecodedImage(\(description))" }
}

extension DecodedImage.SourceInfo: CustomStringConvertible {
    /// `jpeg 4000×3000`, then the orientation when it is not 1 and the frame count when it is not 1
    /// (`gif 320×240, 12 frames`).
    public var description: String {
        var text = "\(format) \(width)×\(height)"
        if orientation != 1 { text += ", orientation \(orientation)" }
        if frameCount != 1 { text += ", \(frameCount) frames" }
        return text
    }
}
