import Foundation
import StoreEngine
import StorefrontProcessTestSupport
import XCTest

@testable import SandboxSigning

/// The issue's "done when": Apple's own `SignedDataVerifier` (app-store-server-library, Sandbox,
/// offline) accepts Storefront's signed transactions and renewal infos against the exported root,
/// and rejects a one-byte tamper, a wrong root, a wrong bundle id and an expired leaf, exactly as
/// ``JWSVerifier`` does.
final class AppleVerifierAcceptanceTests: XCTestCase {
  private var directory: URL?

  override func tearDown() {
    if let directory { try? FileManager.default.removeItem(at: directory) }
    super.tearDown()
  }

  private struct Expectation {
    var jws: String
    var kind: AppleVerifier.Case.Kind
    var root: URL
    var trusted: Certificate
    var bundleID = SigningFixtures.bundleID
    /// 0 for OK, else Apple's `VerificationStatus`.
    var status: Int
    /// Our failure's ``JWSVerificationFailure/name``, when it should fail.
    var reason: String?
    var payload: Data?
  }

  func test_applesSignedDataVerifier_acceptsOurJWS_andRejectsTheBadOnes() throws {
    let apple: AppleVerifier
    do {
      apple = try AppleVerifier.prepare()
    } catch let unavailable as AppleVerifier.Unavailable {
      throw XCTSkip(unavailable.description)  // no Python venv or no PyPI here
    }
    let base = try SigningFixtures.temporaryDirectory("apple")
    directory = base
    let year: TimeInterval = 365.25 * 86_400
    let ca = try SandboxCertificateAuthority.open(
      in: base.appendingPathComponent("ca"), validFrom: SigningFixtures.validFrom)
    let other = try SandboxCertificateAuthority.open(
      in: base.appendingPathComponent("other"), validFrom: SigningFixtures.validFrom)
    let shortLived = try SandboxCertificateAuthority.open(
      in: base.appendingPathComponent("short"), validFrom: SigningFixtures.validFrom,
      lifetimes: .init(root: 40 * year, intermediate: 35 * year, leaf: 86_400))
    let rootFile = base.appendingPathComponent("root.der")
    let otherRootFile = base.appendingPathComponent("other-root.der")
    let shortRootFile = base.appendingPathComponent("short-root.der")
    try ca.exportRoot(format: .der).write(to: rootFile)
    try other.exportRoot(format: .der).write(to: otherRootFile)
    try shortLived.exportRoot(format: .der).write(to: shortRootFile)

    let signer = ca.signer()
    let context = SigningFixtures.context()
    var offerAndRefund = SigningFixtures.autoRenewable()
    offerAndRefund.offerType = .promotional
    offerAndRefund.offerID = "spring_promo"
    offerAndRefund.offerPaymentMode = .payAsYouGo
    offerAndRefund.revocationDate = SigningFixtures.now
    offerAndRefund.revocationReason = 1
    let transactions: [String: PaymentTransaction] = [
      "consumable": SigningFixtures.consumable(), "nonConsumable": SigningFixtures.nonConsumable(),
      "nonRenewing": SigningFixtures.nonRenewing(), "autoRenewable": SigningFixtures.autoRenewable(),
      "renewal": SigningFixtures.autoRenewable(reason: .renewal), "offerAndRefund": offerAndRefund,
    ]
    var expectations: [String: Expectation] = [:]
    for (name, transaction) in transactions {
      let payload = try SignedPayloads.transaction(transaction, context: context)
      expectations[name] = Expectation(
        jws: try signer.sign(payload: payload), kind: .transaction, root: rootFile, trusted: ca.root, status: 0,
        payload: payload)
    }
    let renewalPayload = try SignedPayloads.renewalInfo(SigningFixtures.renewalInfo(), context: context)
    let renewalInfo = try signer.sign(payload: renewalPayload)
    expectations["renewalInfo"] = Expectation(
      jws: renewalInfo, kind: .renewal, root: rootFile, trusted: ca.root, status: 0, payload: renewalPayload)

    let autoRenewable = try XCTUnwrap(expectations["autoRenewable"]).jws
    expectations["tampered"] = Expectation(
      jws: try TamperedJWS.editingPayload(autoRenewable, replacing: #""price":10990"#, with: #""price":20990"#),
      kind: .transaction, root: rootFile, trusted: ca.root, status: 1, reason: "tampered")
    expectations["tamperedRenewalInfo"] = Expectation(
      jws: try TamperedJWS.editingPayload(renewalInfo, replacing: #""autoRenewStatus":1"#, with: #""autoRenewStatus":0"#),
      kind: .renewal, root: rootFile, trusted: ca.root, status: 1, reason: "tampered")
    expectations["wrongRoot"] = Expectation(
      jws: autoRenewable, kind: .transaction, root: otherRootFile, trusted: other.root, status: 1,
      reason: "unknownRoot")
    expectations["wrongBundleID"] = Expectation(
      jws: autoRenewable, kind: .transaction, root: rootFile, trusted: ca.root, bundleID: "com.example.other",
      status: 2, reason: "wrongBundleID")
    expectations["expiredLeaf"] = Expectation(
      jws: try shortLived.signer().sign(payload: SignedPayloads.transaction(SigningFixtures.consumable(), context: context)),
      kind: .transaction, root: shortRootFile, trusted: shortLived.root, status: 1, reason: "expired")
    expectations["production"] = Expectation(
      jws: try signer.sign(
        payload: SignedPayloads.transaction(
          SigningFixtures.consumable(), context: SigningFixtures.context(environment: "Production"))),
      kind: .transaction, root: rootFile, trusted: ca.root, status: 6, reason: "wrongEnvironment")

    expectations["leafWithoutAppleOID"] = Expectation(
      jws: try leafWithoutAppleOID(ca: ca, payload: SignedPayloads.transaction(SigningFixtures.consumable(), context: context)),
      kind: .transaction, root: rootFile, trusted: ca.root, status: 1, reason: "missingExtension")

    let verdicts = try apple.verify(
      expectations.sorted { $0.key < $1.key }.map { name, expectation in
        AppleVerifier.Case(
          name: name, kind: expectation.kind, jws: expectation.jws, rootDER: expectation.root.path,
          bundleID: expectation.bundleID)
      })
    XCTAssertEqual(Set(verdicts.keys), Set(expectations.keys))

    for (name, expectation) in expectations.sorted(by: { $0.key < $1.key }) {
      let verdict = try XCTUnwrap(verdicts[name], name)
      XCTAssertEqual(verdict.status, expectation.status, "Apple's verdict on \(name): \(verdict.cause ?? "no cause")")

      let ours = JWSVerifier(
        trustedRoots: [expectation.trusted], bundleID: expectation.bundleID, now: { SigningFixtures.now })
      do {
        _ = try ours.verify(expectation.jws)
        XCTAssertEqual(expectation.status, 0, "JWSVerifier accepted \(name)")
      } catch {
        XCTAssertEqual(error.appleVerificationStatus, expectation.status, "JWSVerifier on \(name): \(error)")
        XCTAssertEqual(error.name, expectation.reason, "JWSVerifier on \(name): \(error)")
      }

      if expectation.status == 0, let payload = expectation.payload {
        try assertDecodedMatches(verdict.decoded, payload: payload, kind: expectation.kind, name: name)
      }
    }
  }

  /// A JWS whose leaf is issued by the real intermediate but lacks `1.2.840.113635.100.6.11.1`.
  private func leafWithoutAppleOID(ca: SandboxCertificateAuthority, payload: Data) throws -> String {
    let intermediateKey = try PrivateKey(
      pem: Data(contentsOf: ca.directory.appendingPathComponent("intermediate-ca.key.pem")))
    let key = try PrivateKey.generateP256()
    let leaf = try CertificateProfile(
      subject: [("CN", "Leaf Without OID")], notBefore: SigningFixtures.validFrom,
      notAfter: SigningFixtures.now.addingTimeInterval(86_400), basicConstraints: nil, keyUsage: nil
    ).issue(for: key, issuer: (ca.intermediate, intermediateKey))
    return try ES256Signer(key: key, chain: [leaf, ca.intermediate, ca.root]).sign(payload: payload)
  }

  /// Apple's decoded model holds the values we signed.
  private func assertDecodedMatches(
    _ decoded: AppleVerifier.Verdict.Decoded?, payload: Data, kind: AppleVerifier.Case.Kind, name: String
  ) throws {
    let decoded = try XCTUnwrap(decoded, name)
    XCTAssertEqual(decoded.environment, "Sandbox", name)
    XCTAssertEqual(decoded.signedDate, 1_714_521_600_000, name)
    switch kind {
    case .transaction:
      let ours = try JSONDecoder().decode(JWSTransactionPayload.self, from: payload)
      var expected = AppleVerifier.Verdict.Decoded(
        transactionId: ours.transactionId, originalTransactionId: ours.originalTransactionId,
        bundleId: ours.bundleId, productId: ours.productId, price: ours.price, currency: ours.currency,
        quantity: ours.quantity, rawType: ours.type, environment: "Sandbox", signedDate: ours.signedDate)
      // The fields issue 12 added, as Apple's model decodes them.
      expected.purchaseDate = ours.purchaseDate
      expected.inAppOwnershipType = ours.inAppOwnershipType
      expected.appTransactionId = ours.appTransactionId
      expected.revocationType = ours.revocationType
      expected.revocationPercentage = ours.revocationPercentage
      expected.offerPeriod = ours.offerPeriod
      expected.billingPlanType = ours.billingPlanType
      expected.webOrderLineItemId = ours.webOrderLineItemId
      XCTAssertEqual(decoded, expected, name)
    case .renewal:
      let ours = try JSONDecoder().decode(JWSRenewalInfoPayload.self, from: payload)
      var expected = AppleVerifier.Verdict.Decoded(
        originalTransactionId: ours.originalTransactionId, productId: ours.productId, environment: "Sandbox",
        signedDate: ours.signedDate, autoRenewProductId: ours.autoRenewProductId,
        autoRenewStatus: ours.autoRenewStatus, renewalPrice: ours.renewalPrice)
      expected.isInBillingRetryPeriod = ours.isInBillingRetryPeriod
      expected.gracePeriodExpiresDate = ours.gracePeriodExpiresDate
      expected.priceIncreaseStatus = ours.priceIncreaseStatus
      expected.eligibleWinBackOfferIds = ours.eligibleWinBackOfferIds
      expected.offerPeriod = ours.offerPeriod
      XCTAssertEqual(decoded, expected, name)
    case .notification, .appTransaction:
      XCTFail("\(name): notifications and app transactions are checked by ServeNotificationDeliveryTests and StoreKitTests")
    }
  }
}
