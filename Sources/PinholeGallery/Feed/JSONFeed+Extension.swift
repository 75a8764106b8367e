import Pinhole

/// The `_pinhole` item extension (JSON Feed 1.1 extensions are keys that start with `_`):
///
///     "_pinhole": {"thumbhash": "3OcRJYB4d3h/iIeHeEh3eIhw+j3A"}
///
/// `thumbhash` is the ThumbHash (https://evanw.github.io/thumbhash/) of the item's `image`, in base64, as
/// `pinhole thumbnail --json` prints it; the gallery draws it in the row until the thumbnail arrives. JSON Feed's
/// `image` is a bare URL with no room for an extension, so the hash lives on the item.
///
/// Untrusted input: a value that is not an object, a `thumbhash` that is not a string, longer than
/// ``maxThumbHashBase64Length``, not base64, cut short, or with bytes after the hash's end is ignored (the item
/// loads without a placeholder) and described in ``JSONFeed/Item/extensionProblem``. Unknown keys are ignored
/// silently, as the specification asks.
extension JSONFeed.Item {
    /// The longest `thumbhash` read, in base64 characters: 64 (a hash takes at most about 45).
    public static let maxThumbHashBase64Length = 64

    enum ExtensionKeys: String, CodingKey { case thumbhash }

    /// The item's placeholder and, when the extension is there but unusable, why it was ignored.
    static func pinholeExtension(_ container: KeyedDecodingContainer<CodingKeys>, id: String)
        -> (ThumbHash?, String?)
    {
        guard container.contains(.pinhole) else { return (nil, nil) }
        let ignored = "feed item \(id): _pinhole"
        guard let fields = try? container.nestedContainer(keyedBy: ExtensionKeys.self, forKey: .pinhole) else {
            return (nil, "\(ignored) is not an object; ignored")
        }
        guard fields.contains(.thumbhash) else { return (nil, nil) }
        guard let text = try? fields.decode(String.self, forKey: .thumbhash) else {
            return (nil, "\(ignored).thumbhash is not a string; ignored")
        }
        guard text.utf8.count <= maxThumbHashBase64Length else {
            return (nil, "\(ignored).thumbhash is \(text.utf8.count) characters, more than a ThumbHash; ignored")
        }
        guard let hash = ThumbHash(base64: text) else {
            return (nil, "\(ignored).thumbhash is not a base64 ThumbHash; ignored")
        }
        guard hash.bytes.count == hash.declaredByteCount else {
            return (
                nil,
                "\(ignored).thumbhash has \(hash.bytes.count) bytes where its header declares "
                    + "\(hash.declaredByteCount); ignored"
            )
        }
        return (hash, nil)
    }
}
