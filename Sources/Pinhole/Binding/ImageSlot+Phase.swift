/// The phase's image, and a short description of it.
extension ImageSlot.Phase: CustomStringConvertible {
    /// The pixels to draw, in `.success`; `nil` in every other phase.
    public var image: PixelImage? { response?.image }

    /// `empty`, `loading`, `success(…)` with the response's short ``ImageResponse/description`` (never pixels),
    /// or `failure(…)`.
    public var description: String {
        switch self {
        case .empty: "empty"
        case .loading: "loading"
        case .success(let response): "success(\(response))"
        case .failure(let error): "failure(\(error))"
        }
    }
}
