/// FNV-1a, 64-bit, over bytes: a hash that is the same in every process, on every machine and in every
/// version of Pinhole, so that shards and output names of listed inputs agree across the processes of a
/// cluster run, and the disk cache's entry file names stay valid across launches.
///
/// Swift's `Hasher` must not be used for this: it is seeded per process.
///
/// Offset basis `0xcbf29ce484222325`, prime `0x100000001b3`; for each byte, `hash = (hash ^ byte) &* prime`
/// (<http://www.isthe.com/chongo/tech/comp/fnv/>). `fnv1a64("a") == 0xaf63dc4c8601ec8c`. Not cryptographic.
///
/// Inlinable, so that hashing a key in another module of the package runs specialised for its byte sequence.
package struct StableHash: Sendable, Hashable {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of the bytes combined so far (the basis when none).
    package private(set) var value: UInt64

    /// An empty hash starting from `basis` (the standard ``offsetBasis`` by default).
    @inlinable
    package init(basis: UInt64 = StableHash.offsetBasis) {
        value = basis
    }

    /// Adds `bytes` to the hash, in order.
    @inlinable
    package mutating func combine(_ bytes: some Sequence<UInt8>) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* Self.prime
        }
        value = hash
    }

    /// The FNV-1a 64 hash of `bytes`, starting from `basis` (the standard ``offsetBasis`` by default).
    @inlinable
    package static func fnv1a64(_ bytes: some Sequence<UInt8>, basis: UInt64 = offsetBasis) -> UInt64 {
        var hash = StableHash(basis: basis)
        hash.combine(bytes)
        return hash.value
    }

    /// The FNV-1a 64 hash of the UTF-8 bytes of `text`.
    @inlinable
    package static func fnv1a64(_ text: String) -> UInt64 {
        fnv1a64(text.utf8)
    }
}
