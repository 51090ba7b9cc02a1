import Foundation
import SandboxSigning
import StoreKit
import StoreKitTest
import XCTest

/// Apple's sample helper, generic over an unconstrained `T`: it compiles only if `VerificationResult`
/// has no `Sendable` constraint on its parameter.
func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
  switch result {
  case .unverified(_, let error): throw error
  case .verified(let value): return value
  }
}

/// `VerificationResult`'s JWS accessors read the parts of the compact JWS the store signed.
final class StoreKit2VerificationTests: StoreKitTestCase {
  func testCheckVerifiedOverAnyTypeAndTheVerificationErrorIsALocalizedError() throws {
    struct NotSendable { var value = 1 }
    XCTAssertEqual(try checkVerified(VerificationResult<NotSendable>.verified(NotSendable())).value, 1)
    let unverified = VerificationResult<NotSendable>.unverified(NotSendable(), .invalidSignature)
    XCTAssertThrowsError(try checkVerified(unverified)) { error in
      XCTAssertEqual(error as? VerificationResult<NotSendable>.VerificationError, .invalidSignature)
      XCTAssertNotNil((error as? LocalizedError)?.errorDescription)
      XCTAssertNotNil((error as? LocalizedError)?.failureReason)
      XCTAssertNotNil((error as? LocalizedError)?.recoverySuggestion)
    }
  }

  func testTransactionJWSPartsAndDeviceVerification() async throws {
    let result = try await Product.products(for: [IDs.shopping]).first?.purchase()
    guard case .success(let verification) = result else { return XCTFail("\(String(describing: result))") }
    try assertParts(
      jws: verification.jwsRepresentation, header: verification.headerData, payload: verification.payloadData,
      signature: verification.signatureData, signedData: verification.signedData)
    let transaction = verification.unsafePayloadValue
    XCTAssertEqual(verification.payloadData, transaction.jsonRepresentation)
    XCTAssertEqual(verification.signature.rawRepresentation, verification.signatureData)
    let der = verification.signature.derRepresentation
    XCTAssertEqual(try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation, verification.signatureData)
    XCTAssertEqual(verification.signedDate, transaction.signedDate)
    let payload = try JSONSerialization.jsonObject(with: verification.payloadData) as? [String: Any]
    let signedMilliseconds = try XCTUnwrap(payload?["signedDate"] as? Double)
    XCTAssertEqual(verification.signedDate.timeIntervalSince1970, signedMilliseconds / 1000, accuracy: 0.001)
    try assertDeviceVerification(verification.deviceVerification, nonce: verification.deviceVerificationNonce)
    XCTAssertEqual(verification.deviceVerification, transaction.deviceVerification)

    let second = try await Product.products(for: [IDs.coins100]).first?.purchase()
    guard case .success(let other) = second else { return XCTFail() }
    XCTAssertNotEqual(other.deviceVerificationNonce, verification.deviceVerificationNonce)
    XCTAssertNotEqual(other.deviceVerification, verification.deviceVerification)
  }

  func testRenewalInfoAndAppTransactionJWSParts() async throws {
    guard case .success(let bought) = try await Product.products(for: [IDs.monthly]).first?.purchase() else { return XCTFail() }
    let group = try XCTUnwrap(bought.unsafePayloadValue.subscriptionGroupID)
    let statuses = try await Product.SubscriptionInfo.status(for: group)
    let status = try XCTUnwrap(statuses.first)
    let info = status.renewalInfo
    try assertParts(
      jws: info.jwsRepresentation, header: info.headerData, payload: info.payloadData, signature: info.signatureData,
      signedData: info.signedData)
    XCTAssertEqual(info.signedDate, info.unsafePayloadValue.signedDate)
    try assertDeviceVerification(info.deviceVerification, nonce: info.deviceVerificationNonce)

    let app = try await AppTransaction.shared
    try assertParts(
      jws: app.jwsRepresentation, header: app.headerData, payload: app.payloadData, signature: app.signatureData,
      signedData: app.signedData)
    XCTAssertEqual(app.signature.rawRepresentation, app.signatureData)
    XCTAssertEqual(app.signedDate, app.unsafePayloadValue.signedDate)
    try assertDeviceVerification(app.deviceVerification, nonce: app.deviceVerificationNonce)
    XCTAssertEqual(legacy(app.unsafePayloadValue).originalPlatformStringRepresentation, app.unsafePayloadValue.originalPlatform.rawValue)
    XCTAssertTrue(app.unsafePayloadValue.debugDescription.contains(app.unsafePayloadValue.bundleID))
  }

  func testDebugDescriptionOfAVerificationResultNamesTheVerdict() async throws {
    guard case .success(let verification) = try await Product.products(for: [IDs.shopping]).first?.purchase() else { return XCTFail() }
    XCTAssertTrue(verification.debugDescription.hasPrefix("VerificationResult.verified("))
    XCTAssertTrue(verification.debugDescription.contains(IDs.shopping))
  }

  // MARK: Helpers

  private func assertParts(jws: String, header: Data, payload: Data, signature: Data, signedData: Data, line: UInt = #line) throws {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    XCTAssertEqual(parts.count, 3, line: line)
    let headerObject = try JSONSerialization.jsonObject(with: header) as? [String: Any]
    XCTAssertEqual(headerObject?["alg"] as? String, "ES256", line: line)
    XCTAssertNotNil(headerObject?["x5c"], line: line)
    XCTAssertNotNil(try JSONSerialization.jsonObject(with: payload) as? [String: Any], line: line)
    XCTAssertEqual(signature.count, 64, line: line)
    XCTAssertEqual(String(decoding: signedData, as: UTF8.self), "\(parts[0]).\(parts[1])", line: line)
  }

  private func assertDeviceVerification(_ hash: Data, nonce: UUID, line: UInt = #line) throws {
    let device = try XCTUnwrap(AppStore.deviceVerificationID, line: line)
    let expected = SHA384.hash(Data((nonce.uuidString.lowercased() + device.uuidString.lowercased()).utf8))
    XCTAssertEqual(hash.count, 48, line: line)
    XCTAssertEqual(hash, expected, line: line)
  }
}
