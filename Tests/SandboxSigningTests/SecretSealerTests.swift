import Foundation
import SandboxSigning
import XCTest

/// AES-256-GCM sealing of the private keys a shared ledger stores.
final class SecretSealerTests: XCTestCase {
  private let hexKey = String(repeating: "0f1e", count: 16)

  func testSealedValuesOpenWithTheSameKeyAndNameOnly() throws {
    let sealer = try SecretSealer(text: hexKey, source: "test")
    let plaintext = Data("-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n".utf8)
    let sealed = try sealer.seal(plaintext, name: "signing.key.pem")
    XCTAssertTrue(SecretSealer.isSealed(sealed))
    XCTAssertFalse(sealed.contains("PRIVATE KEY"))
    XCTAssertNotEqual(sealed, try sealer.seal(plaintext, name: "signing.key.pem"), "a fresh nonce each time")
    XCTAssertEqual(try sealer.open(sealed, name: "signing.key.pem"), plaintext)

    // The same key in base64 opens it; another key, another name or a changed byte do not.
    let base64 = try SecretSealer(text: hexBase64(), source: "test")
    XCTAssertEqual(try base64.open(sealed, name: "signing.key.pem"), plaintext)
    let other = try SecretSealer(text: String(repeating: "ab", count: 32), source: "test")
    XCTAssertThrowsError(try other.open(sealed, name: "signing.key.pem")) { error in
      XCTAssertEqual(error as? SecretSealer.Failure, .wrongKey(item: "signing.key.pem"))
    }
    XCTAssertThrowsError(try sealer.open(sealed, name: "root-ca.key.pem"))
    var bytes = [UInt8](Data(base64Encoded: String(sealed.dropFirst(4))) ?? Data())
    bytes[20] ^= 1
    XCTAssertThrowsError(try sealer.open("sf1:" + Data(bytes).base64EncodedString(), name: "signing.key.pem"))
  }

  func testAKeyThatIsNot32BytesIsRefusedWithoutRepeatingIt() {
    XCTAssertThrowsError(try SecretSealer(text: "hunter2", source: "$STOREFRONT_KEY_ENCRYPTION_KEY")) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("$STOREFRONT_KEY_ENCRYPTION_KEY"), text)
      XCTAssertTrue(text.contains("openssl rand -hex 32"), text)
      XCTAssertFalse(text.contains("hunter2"), text)
    }
  }

  private func hexBase64() -> String {
    var bytes: [UInt8] = []
    var index = hexKey.startIndex
    while index < hexKey.endIndex {
      let next = hexKey.index(index, offsetBy: 2)
      bytes.append(UInt8(hexKey[index..<next], radix: 16) ?? 0)
      index = next
    }
    return Data(bytes).base64EncodedString()
  }
}
