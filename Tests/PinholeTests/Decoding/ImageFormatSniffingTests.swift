import Foundation
import Pinhole
import Testing

/// ``ImageFormat/sniff(_:)`` on the signatures that sit close to each other: JPEG XL's bare codestream (`FF 0A`,
/// which looks like a JPEG marker) and container (an ISO BMFF box, like HEIF's), next to an ordinary JPEG.
@Suite
struct ImageFormatSniffingTests {
    @Test func recognisesABareJPEGXLCodestream() {
        // Given the first bytes of a JPEG XL codestream: FF 0A, then a SizeHeader and an ImageHeader
        let data = Data([0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90, 0x08, 0x06, 0x01, 0x00, 0x48, 0x01])

        // When it is sniffed, Then it is JPEG XL, named so for people
        #expect(ImageFormat.sniff(data) == .image(.jxl))
        #expect(ImageFormat.jxl.displayName == "JPEG XL")
    }

    @Test func recognisesTheJPEGXLContainerBySignatureBox() {
        // Given a minimal JPEG XL container: the 12-byte `JXL ` signature box, then an `ftyp` box of brand `jxl `
        var data = Data([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        data.append(contentsOf: [0x00, 0x00, 0x00, 0x14] + Array("ftypjxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))

        // When it is sniffed, Then it is JPEG XL (not HEIF, not unknown bytes)
        #expect(ImageFormat.sniff(data) == .image(.jxl))
    }

    @Test func aSignatureBoxWithAnotherTypeIsNotJPEGXL() {
        // Given the container's box header with a wrong type (`JXM `) and the same signature bytes
        let data = Data([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4D, 0x20, 0x0D, 0x0A, 0x87, 0x0A])

        // When it is sniffed, Then it is no image format
        #expect(ImageFormat.sniff(data) != .image(.jxl))
        #expect(ImageFormat.sniff(data) == .notAnImage(kind: "unknown bytes 00 00 00 0c 4a 58 4d 20"))
    }

    @Test func anOrdinaryJPEGIsStillJPEG() {
        // Given the start of a JFIF JPEG (SOI, then an APP0 marker) and of an Exif one (SOI, APP1)
        let jfif = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01])
        let exif = Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x16] + Array("Exif".utf8) + [0x00, 0x00])

        // When they are sniffed, Then both are JPEG
        #expect(ImageFormat.sniff(jfif) == .image(.jpeg))
        #expect(ImageFormat.sniff(exif) == .image(.jpeg))
    }

    @Test func jpegXLStaysOutOfTheUntrustedDefaults() {
        // Given the formats an untrusted source may be decoded as by default
        // When JPEG XL is looked for, Then it is not among them (libvips marks its loader untrusted)
        #expect(!ImageFormat.untrustedDefault.contains(.jxl))
    }
}
