import Foundation
import PinholeServer
import Testing

/// Signatures as imgproxy computes them, checked in constant time.
struct URLSignerTests {
    /// imgproxy's documented example: key `secret`, salt `hello` (hex 736563726574, 68656C6C6F).
    static let documentedPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
    static let documentedSignature = "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"

    @Test func theSignatureMatchesImgproxysDocumentedExample() throws {
        let signer = try URLSigner(keyHex: "736563726574", saltHex: "68656C6C6F")
        #expect(signer.signature(for: Self.documentedPath) == Self.documentedSignature)
        #expect(signer.isValid(signature: Self.documentedSignature, for: Self.documentedPath))
        #expect(signer.signedPath(Self.documentedPath) == "/\(Self.documentedSignature)\(Self.documentedPath)")
    }

    @Test func aSignatureForAnotherPathKeyOrSaltIsRefused() throws {
        let signer = try URLSigner(keyHex: "736563726574", saltHex: "68656C6C6F")
        let otherKey = try URLSigner(keyHex: "736563726575", saltHex: "68656C6C6F")
        let otherSalt = try URLSigner(keyHex: "736563726574", saltHex: "")
        #expect(!signer.isValid(signature: Self.documentedSignature, for: Self.documentedPath + "x"))
        #expect(!otherKey.isValid(signature: Self.documentedSignature, for: Self.documentedPath))
        #expect(!otherSalt.isValid(signature: Self.documentedSignature, for: Self.documentedPath))
    }

    @Test(arguments: [
        "", "insecure", "_", "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH",
        "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8AA", "%%%%",
    ])
    func truncatedPaddedOrGarbageSignaturesAreRefused(signature: String) throws {
        let signer = try URLSigner(keyHex: "736563726574", saltHex: "68656C6C6F")
        #expect(!signer.isValid(signature: signature, for: Self.documentedPath))
    }

    @Test func aSignatureWithPaddingStillVerifies() throws {
        let signer = try URLSigner(keyHex: "736563726574", saltHex: "68656C6C6F")
        #expect(signer.isValid(signature: Self.documentedSignature + "=", for: Self.documentedPath))
    }

    @Test(arguments: [("", ""), ("abc", ""), ("zz", ""), ("00", "0g")])
    func keysAndSaltsThatAreNotHexadecimalAreRefused(key: String, salt: String) {
        #expect(throws: URLSigner.KeyError.self) { _ = try URLSigner(keyHex: key, saltHex: salt) }
    }
}
