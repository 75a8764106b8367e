public import Pinhole
import PinholeTestFakes
public import Testing

// Short descriptions for failure messages: Swift Testing prints the values of an `#expect`'s operands, and an
// image's default description lists every pixel byte (a 100×75 image is 22,500 numbers).

extension PixelImage: CustomTestStringConvertible {
    public var testDescription: String {
        let colour = FakeImage.uniformColour(of: self).map { ", every pixel \($0)" } ?? ""
        return "PixelImage(\(width)×\(height) \(pixelFormat)\(colour))"
    }
}

extension ImageResponse: CustomTestStringConvertible {
    public var testDescription: String { "ImageResponse(\(image.testDescription), source: \(source))" }
}

extension ImageSlot.Phase: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .empty: ".empty"
        case .loading: ".loading"
        case .success(let response): ".success(\(response.testDescription))"
        case .failure(let error): ".failure(\(error))"
        }
    }
}
