import Foundation
import StoreEngine
import XCTest

final class SignedPayloadsTests: XCTestCase {
  private let nowMillis = "1714521600000"

  func test_consumable_hasApplesFieldsAndJSONTypes() throws {
    let data = try SignedPayloads.transaction(SigningFixtures.consumable(), context: SigningFixtures.context())
    let json = try jsonLiterals(data)
    XCTAssertEqual(
      json,
      [
        "transactionId": #""1000000001""#, "originalTransactionId": #""1000000001""#,
        "bundleId": #""com.example.storefront""#, "productId": #""com.example.gems100""#,
        "purchaseDate": "1714521540000", "originalPurchaseDate": "1714521540000", "quantity": "3",
        "type": #""Consumable""#, "inAppOwnershipType": #""PURCHASED""#, "signedDate": nowMillis,
        "environment": #""Sandbox""#, "storefront": #""USA""#, "storefrontId": #""143441""#,
        "transactionReason": #""PURCHASE""#, "currency": #""USD""#, "price": "4990",
        "appTransactionId": #""\#(SignedPayloads.appTransactionID(account: "tester", bundleID: "com.example.storefront"))""#,
      ])
  }

  /// The payload fields Apple added (appTransactionId) and those of revoked and family-shared
  /// transactions (`Docs/SignedTransactions.md`).
  func test_appTransactionIdRevocationTypeAndFamilySharing() throws {
    let a = SignedPayloads.appTransactionID(account: "alice", bundleID: "com.example.app")
    XCTAssertEqual(a, SignedPayloads.appTransactionID(account: "alice", bundleID: "com.example.app"), "stable")
    XCTAssertNotEqual(a, SignedPayloads.appTransactionID(account: "bob", bundleID: "com.example.app"))
    XCTAssertEqual(a.count, 18)
    var refunded = SigningFixtures.consumable()
    refunded.revocationDate = Date(timeIntervalSince1970: 1_714_521_600)
    var json = try jsonLiterals(SignedPayloads.transaction(refunded, context: SigningFixtures.context()))
    XCTAssertEqual(json["revocationType"], #""REFUND_FULL""#)
    XCTAssertEqual(json["revocationPercentage"], "100000")
    refunded.familySharedBy = "parent"
    json = try jsonLiterals(SignedPayloads.transaction(refunded, context: SigningFixtures.context()))
    XCTAssertEqual(json["inAppOwnershipType"], #""FAMILY_SHARED""#)
    XCTAssertEqual(json["revocationType"], #""FAMILY_REVOKE""#)
    XCTAssertNil(try jsonLiterals(SignedPayloads.transaction(SigningFixtures.consumable(), context: SigningFixtures.context()))["revocationType"])
  }

  func test_payloadBytes_areSortedCompactAndDeterministic() throws {
    let transaction = SigningFixtures.nonConsumable()
    let first = try SignedPayloads.transaction(transaction, context: SigningFixtures.context())
    let second = try SignedPayloads.transaction(transaction, context: SigningFixtures.context())
    XCTAssertEqual(first, second)
    let text = String(decoding: first, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix(#"{"appAccountToken":"5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b","appTransactionId":"#), text)
    XCTAssertFalse(text.contains(" "), "compact JSON expected: \(text)")
    let keys = try jsonLiterals(first).keys.sorted()
    let order = keys.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
    XCTAssertEqual(order, order.sorted(), "keys are not in sorted order")
  }

  func test_nonConsumable_carriesAppAccountTokenStorefrontAndCurrency() throws {
    let json = try jsonLiterals(
      SignedPayloads.transaction(SigningFixtures.nonConsumable(), context: SigningFixtures.context()))
    XCTAssertEqual(json["type"], #""Non-Consumable""#)
    XCTAssertEqual(json["appAccountToken"], #""5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b""#)
    XCTAssertEqual(json["storefront"], #""DEU""#)
    XCTAssertEqual(json["currency"], #""EUR""#)
    XCTAssertEqual(json["price"], "2990")
    XCTAssertNil(json["expiresDate"])
  }

  func test_nonRenewingSubscription_hasNoExpiresDateOrGroup() throws {
    let json = try jsonLiterals(
      SignedPayloads.transaction(SigningFixtures.nonRenewing(), context: SigningFixtures.context()))
    XCTAssertEqual(json["type"], #""Non-Renewing Subscription""#)
    XCTAssertNil(json["expiresDate"])
    XCTAssertNil(json["subscriptionGroupIdentifier"])
    XCTAssertNil(json["webOrderLineItemId"])
  }

  func test_autoRenewable_hasExpiryGroupAndLineItem() throws {
    let json = try jsonLiterals(
      SignedPayloads.transaction(SigningFixtures.autoRenewable(), context: SigningFixtures.context()))
    XCTAssertEqual(json["type"], #""Auto-Renewable Subscription""#)
    XCTAssertEqual(json["expiresDate"], "1717113600000")
    XCTAssertEqual(json["originalPurchaseDate"], "1711929600000")
    XCTAssertEqual(json["subscriptionGroupIdentifier"], #""21430001""#)
    XCTAssertEqual(json["webOrderLineItemId"], #""2000000001""#)
    XCTAssertEqual(json["price"], "10990")
    XCTAssertNil(json["isUpgraded"], "isUpgraded is written only when true")
    XCTAssertNil(json["offerType"])
  }

  func test_renewal_keepsOriginalIDAndSaysRenewal() throws {
    var renewal = SigningFixtures.autoRenewable(reason: .renewal)
    renewal.isUpgraded = true
    let json = try jsonLiterals(SignedPayloads.transaction(renewal, context: SigningFixtures.context()))
    XCTAssertEqual(json["transactionId"], #""1000000005""#)
    XCTAssertEqual(json["originalTransactionId"], #""1000000004""#)
    XCTAssertEqual(json["transactionReason"], #""RENEWAL""#)
    XCTAssertEqual(json["isUpgraded"], "true")
  }

  func test_promotionalOffer_writesTypeIdentifierAndDiscount() throws {
    var transaction = SigningFixtures.autoRenewable()
    transaction.offerType = .promotional
    transaction.offerID = "spring_promo"
    transaction.offerPaymentMode = .payUpFront
    transaction.price = Decimal(string: "1.5") ?? 0
    let json = try jsonLiterals(SignedPayloads.transaction(transaction, context: SigningFixtures.context()))
    XCTAssertEqual(json["offerType"], "2")
    XCTAssertEqual(json["offerIdentifier"], #""spring_promo""#)
    XCTAssertEqual(json["offerDiscountType"], #""PAY_UP_FRONT""#)
    XCTAssertEqual(json["price"], "1500")
  }

  func test_introductoryFreeTrial_hasNoOfferIdentifier() throws {
    var transaction = SigningFixtures.autoRenewable()
    transaction.offerType = .introductory
    transaction.offerID = "intro-internal-id"
    transaction.offerPaymentMode = .freeTrial
    transaction.price = 0
    let json = try jsonLiterals(SignedPayloads.transaction(transaction, context: SigningFixtures.context()))
    XCTAssertEqual(json["offerType"], "1")
    XCTAssertEqual(json["offerDiscountType"], #""FREE_TRIAL""#)
    XCTAssertNil(json["offerIdentifier"])
    XCTAssertEqual(json["price"], "0")
  }

  func test_refund_writesRevocationDateAndReason() throws {
    var transaction = SigningFixtures.nonConsumable()
    transaction.revocationDate = SigningFixtures.now.addingTimeInterval(0.25)
    transaction.revocationReason = 1
    let json = try jsonLiterals(SignedPayloads.transaction(transaction, context: SigningFixtures.context()))
    XCTAssertEqual(json["revocationDate"], "1714521600250")
    XCTAssertEqual(json["revocationReason"], "1")

    transaction.revocationReason = nil
    let defaulted = try jsonLiterals(SignedPayloads.transaction(transaction, context: SigningFixtures.context()))
    XCTAssertEqual(defaulted["revocationReason"], "0", "a refund without a reason is 'other'")
  }

  func test_renewalInfo_hasApplesFieldsAndJSONTypes() throws {
    var info = SigningFixtures.renewalInfo()
    info.autoRenewStatus = false
    info.expirationIntent = .customerCancelled
    info.priceIncreaseStatus = .notResponded
    info.gracePeriodExpiresDate = SigningFixtures.now.addingTimeInterval(86_400)
    let json = try jsonLiterals(SignedPayloads.renewalInfo(info, context: SigningFixtures.context()))
    XCTAssertEqual(
      json,
      [
        "originalTransactionId": #""1000000004""#, "autoRenewProductId": #""com.example.premium.monthly""#,
        "productId": #""com.example.premium.monthly""#, "autoRenewStatus": "0", "expirationIntent": "1",
        "isInBillingRetryPeriod": "false", "priceIncreaseStatus": "0", "gracePeriodExpiresDate": "1714608000000",
        "signedDate": nowMillis, "environment": #""Sandbox""#, "recentSubscriptionStartDate": "1711929600000",
        "renewalDate": "1717113600000", "currency": #""USD""#, "renewalPrice": "10990",
      ])
  }

  func test_renewalInfo_withOffer() throws {
    var info = SigningFixtures.renewalInfo()
    info.offerType = .code
    info.offerID = "SUMMER24"
    info.offerPaymentMode = .payAsYouGo
    info.renewalPrice = Decimal(string: "5.49") ?? 0
    let json = try jsonLiterals(SignedPayloads.renewalInfo(info, context: SigningFixtures.context()))
    XCTAssertEqual(json["offerType"], "3")
    XCTAssertEqual(json["offerIdentifier"], #""SUMMER24""#)
    XCTAssertEqual(json["offerDiscountType"], #""PAY_AS_YOU_GO""#)
    XCTAssertEqual(json["renewalPrice"], "5490")
    XCTAssertEqual(json["autoRenewStatus"], "1")
  }

  func test_milliunits_roundHalfAwayFromZero() throws {
    XCTAssertEqual(try SignedPayloads.milliunits(Decimal(string: "0.0005") ?? 0), 1)
    XCTAssertEqual(try SignedPayloads.milliunits(Decimal(string: "1234567.891") ?? 0), 1_234_567_891)
    XCTAssertEqual(try SignedPayloads.milliunits(Decimal(string: "-2.5") ?? 0), -2500)
    XCTAssertThrowsError(try SignedPayloads.milliunits(Decimal(string: "1e30") ?? 0, owner: "product x")) { error in
      XCTAssertTrue(String(describing: error).contains("product x"), "\(error)")
    }
  }

  func test_decodesBackIntoTypedPayload() throws {
    let data = try SignedPayloads.transaction(SigningFixtures.autoRenewable(), context: SigningFixtures.context())
    let payload = try JSONDecoder().decode(JWSTransactionPayload.self, from: data)
    XCTAssertEqual(
      payload,
      try SignedPayloads.transactionPayload(for: SigningFixtures.autoRenewable(), context: SigningFixtures.context()))
  }
}

extension SignedPayloadsTests {
  func test_renewalInfoFromATransaction() throws {
    let transaction = SigningFixtures.autoRenewable(reason: .renewal)
    let info = try XCTUnwrap(RenewalInfo(renewing: transaction, renewalPrice: Decimal(string: "10.99") ?? 0))
    XCTAssertEqual(info, SigningFixtures.renewalInfo())
    let downgrade = try XCTUnwrap(
      RenewalInfo(renewing: transaction, renewalPrice: 5, autoRenewProductID: "com.example.basic.monthly"))
    XCTAssertEqual(downgrade.autoRenewProductID, "com.example.basic.monthly")
    XCTAssertEqual(downgrade.productID, "com.example.premium.monthly")
    XCTAssertNil(RenewalInfo(renewing: SigningFixtures.nonRenewing(), renewalPrice: 1))
  }
}
