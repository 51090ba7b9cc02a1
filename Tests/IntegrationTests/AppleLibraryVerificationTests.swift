import Foundation
import StorefrontProcessTestSupport
import XCTest

/// Apple's own SignedDataVerifier accepts what `storefront run` signs, in the SANDBOX environment,
/// given the root exported with `storefront certificate --der`.
final class AppleLibraryVerificationTests: XCTestCase {
  private func appleVerifier() throws -> AppleVerifier { try AppleVerifier.preparedOrSkipped() }

  func testAppleAcceptsEverySignedTransactionAndRenewalInfoOfExamples01And07() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try appleVerifier()
    var cases: [AppleVerifier.Case] = []
    var expectedIDs: [String: String] = [:]
    var renewals = 0
    for example in ["01", "07"] {
      let data = scratch.path("data-\(example)")
      let script = try ExampleScenarios.named(example).path
      let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", data], in: scratch)
      XCTAssertEqual(result.status, 0, result.summary)
      let root = scratch.path("root-\(example).der")
      let exported = try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: scratch)
      XCTAssertEqual(exported.status, 0, exported.summary)
      var seen: Set<String> = []
      for event in EventLine.parse(result.stdout, source: example) {
        for (field, kind) in [("signedTransaction", AppleVerifier.Case.Kind.transaction), ("signedRenewalInfo", .renewal)] {
          guard let jws = event.object[field] as? String, seen.insert(jws).inserted else { continue }
          let name = "\(example) line \(event.number) \(field)"
          cases.append(.init(name: name, kind: kind, jws: jws, rootDER: root, bundleID: "com.example.storefront"))
          if kind == .transaction { expectedIDs[name] = event.transactionID } else { renewals += 1 }
        }
      }
    }
    XCTAssertGreaterThanOrEqual(cases.count, 10)
    XCTAssertGreaterThan(renewals, 0, "07 should produce signedRenewalInfo")

    let verdicts = try apple.verify(cases)
    XCTAssertEqual(verdicts.count, cases.count)
    for item in cases {
      guard let verdict = verdicts[item.name] else {
        XCTFail("\(item.name): no verdict from Apple's library")
        continue
      }
      XCTAssertEqual(verdict.status, 0, "\(item.name): Apple's SignedDataVerifier rejected it: \(verdict.cause ?? "")")
      XCTAssertEqual(verdict.decoded?.environment, "Sandbox", item.name)
      if item.kind == .transaction {
        XCTAssertEqual(verdict.decoded?.transactionId, expectedIDs[item.name], item.name)
        XCTAssertEqual(verdict.decoded?.bundleId, "com.example.storefront", item.name)
      } else {
        XCTAssertNotNil(verdict.decoded?.autoRenewProductId, item.name)
      }
    }
  }

  /// §43: the commitment fields of example 11 (a yearly product billed monthly, cancelled in month
  /// 3) as Apple's library (app-store-server-library 3.1.2) decodes them: `billingPlanType` and
  /// `TransactionCommitmentInfo` of each payment, `renewalBillingPlanType` and `RenewalCommitmentInfo`.
  func testAppleDecodesTheCommitmentOfExample11() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try appleVerifier()
    let example = try ExampleScenarios.named("11")
    let data = scratch.path("data")
    let result = try StorefrontBinary.run(
      ["run", example.path, "--json", "--data-dir", data] + ExampleScenarios.options(for: example), in: scratch)
    XCTAssertEqual(result.status, 0, result.summary)
    let root = scratch.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: scratch).status, 0)
    var cases: [AppleVerifier.Case] = []
    var seen: Set<String> = []
    for event in EventLine.parse(result.stdout, source: "11") where event.state == "purchased" {
      for (field, kind) in [("signedTransaction", AppleVerifier.Case.Kind.transaction), ("signedRenewalInfo", .renewal)] {
        guard let jws = event.object[field] as? String, seen.insert(jws).inserted else { continue }
        cases.append(.init(name: "\(field) \(cases.count)", kind: kind, jws: jws, rootDER: root, bundleID: "com.example.storefront"))
      }
    }
    let verdicts = try apple.verify(cases)
    var periods: [Int] = []
    var renewalCommitments: [AppleVerifier.Verdict.CommitmentInfo] = []
    for item in cases {
      let decoded = try XCTUnwrap(verdicts[item.name]?.decoded, "\(item.name): \(verdicts[item.name]?.cause ?? "no verdict")")
      if item.kind == .transaction, decoded.billingPlanType == "MONTHLY" {
        let info = try XCTUnwrap(decoded.commitmentInfo, item.name)
        XCTAssertEqual(info.totalBillingPeriods, 12, item.name)
        XCTAssertEqual(info.commitmentPrice, 47_880, item.name)
        XCTAssertEqual(info.commitmentExpiresDate, 1_798_761_600_000, "2027-01-01: \(item.name)")
        XCTAssertEqual(decoded.price, 3_990, item.name)
        periods.append(try XCTUnwrap(info.billingPeriodNumber))
      } else if item.kind == .transaction {
        XCTAssertEqual(decoded.billingPlanType, "BILLED_UPFRONT", item.name)
        XCTAssertNil(decoded.commitmentInfo, item.name)
      } else if let info = decoded.commitmentInfo {
        XCTAssertEqual(decoded.renewalBillingPlanType, "MONTHLY", item.name)
        renewalCommitments.append(info)
      }
    }
    XCTAssertEqual(periods.sorted(), Array(1...12))
    XCTAssertFalse(renewalCommitments.isEmpty, "no RenewalCommitmentInfo decoded")
    for info in renewalCommitments {
      XCTAssertEqual(info.commitmentAutoRenewProductId, "com.example.commitment.yearly")
      XCTAssertEqual(info.commitmentRenewalBillingPlanType, "MONTHLY")
      XCTAssertEqual(info.commitmentRenewalDate, 1_798_761_600_000)
      XCTAssertEqual(info.commitmentRenewalPrice, 47_880)
    }
    // Cancelled in month 3: a later payment's renewal info says the commitment will not renew.
    XCTAssertEqual(renewalCommitments.first?.commitmentAutoRenewStatus, 1)
    XCTAssertEqual(renewalCommitments.last?.commitmentAutoRenewStatus, 0)
  }

  func testAppleRejectsTheSameDataUnderAnotherRoot() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try appleVerifier()
    let script = try ExampleScenarios.named("01").path
    let result = try StorefrontBinary.run(["run", script, "--json", "--data-dir", scratch.path("data")], in: scratch)
    XCTAssertEqual(result.status, 0, result.summary)
    let otherRoot = scratch.path("other.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", otherRoot, "--data-dir", scratch.path("other")], in: scratch).status, 0)
    let jws = try XCTUnwrap(EventLine.parse(result.stdout, source: "01").compactMap { $0.object["signedTransaction"] as? String }.first)
    let verdicts = try apple.verify(
      [.init(name: "other root", kind: .transaction, jws: jws, rootDER: otherRoot, bundleID: "com.example.storefront")])
    XCTAssertEqual(verdicts["other root"]?.status, 1, "Apple's verifier must reject a chain to an untrusted root")
  }
}

/// Subscription bundles (DECISIONS §47): Apple's SignedDataVerifier accepts every transaction of
/// Examples/14-bundles, and the bundle fields it carries are read back from the verified payloads
/// (app-store-server-library 3.1.2's model has no attributes for them, so the script reads the JSON).
final class AppleLibraryBundleVerificationTests: XCTestCase {
  func testAppleAcceptsTheBundleExamplesTransactionsWithTheirBundleFields() throws {
    let scratch = try TemporaryDirectory(self)
    let apple = try AppleVerifier.preparedOrSkipped()
    let example = try ExampleScenarios.named("14")
    let data = scratch.path("data")
    let result = try StorefrontBinary.run(
      ["run", example.path, "--json", "--data-dir", data] + ExampleScenarios.options(for: example), in: scratch)
    XCTAssertEqual(result.status, 0, result.summary)
    let root = scratch.path("root.der")
    XCTAssertEqual(try StorefrontBinary.run(["certificate", "--der", "--out", root, "--data-dir", data], in: scratch).status, 0)
    var cases: [AppleVerifier.Case] = []
    var seen: Set<String> = []
    for event in EventLine.parse(result.stdout, source: "14") {
      guard let jws = event.object["signedTransaction"] as? String, seen.insert(jws).inserted else { continue }
      cases.append(.init(name: "line \(event.number) \(cases.count)", kind: .transaction, jws: jws, rootDER: root, bundleID: "com.example.storefront"))
    }
    let verdicts = try apple.verify(cases)
    // Apple's decoding, with the bundle fields beside it.
    struct Row {
      var transactionId, originalTransactionId, productId: String?
      var price: Int64?
      var bundleProductId, bundleTransactionId, bundleOriginalTransactionId, bundleSubscriptionGroupIdentifier: String?
      var previousOriginalTransactionId: String?
      var revocationReason: Int?
    }
    let decoded = cases.compactMap { item -> Row? in
      XCTAssertEqual(verdicts[item.name]?.status, 0, "\(item.name): \(verdicts[item.name]?.cause ?? "no verdict")")
      guard let model = verdicts[item.name]?.decoded else { return nil }
      let bundle = verdicts[item.name]?.bundle
      XCTAssertNotNil(bundle, "\(item.name): no bundle fields in the verdict")
      return Row(
        transactionId: model.transactionId, originalTransactionId: model.originalTransactionId, productId: model.productId,
        price: model.price, bundleProductId: bundle?.bundleProductId, bundleTransactionId: bundle?.bundleTransactionId,
        bundleOriginalTransactionId: bundle?.bundleOriginalTransactionId,
        bundleSubscriptionGroupIdentifier: bundle?.bundleSubscriptionGroupIdentifier,
        previousOriginalTransactionId: bundle?.previousOriginalTransactionId, revocationReason: bundle?.revocationReason)
    }
    let bundle = "com.example.creator.bundle.monthly"
    let bundleIDs = Set(decoded.filter { $0.productId == bundle }.map(\.transactionId))
    let components = decoded.filter { $0.bundleProductId == bundle }
    // Two periods of two included subscriptions.
    XCTAssertGreaterThanOrEqual(components.count, 4)
    for component in components {
      XCTAssertTrue(bundleIDs.contains(component.bundleTransactionId), "\(component.transactionId ?? "?") names bundle transaction \(component.bundleTransactionId ?? "none")")
      XCTAssertNotNil(component.bundleOriginalTransactionId)
      XCTAssertEqual(component.bundleSubscriptionGroupIdentifier, "BBBB0061")
      XCTAssertEqual(component.price, 0)
    }
    // The switch both ways, and the standalone subscription revoked as upgradedToBundle (2).
    let standalone = decoded.first { $0.productId == "com.example.creator.photo.monthly" && $0.bundleProductId == nil }
    XCTAssertTrue(decoded.contains { $0.productId == bundle && $0.previousOriginalTransactionId == standalone?.originalTransactionId })
    XCTAssertTrue(decoded.contains { $0.productId == "com.example.creator.photo.monthly" && $0.bundleProductId == nil && $0.previousOriginalTransactionId != nil })
    XCTAssertTrue(decoded.contains { $0.revocationReason == 2 && $0.bundleProductId == nil })
  }
}
