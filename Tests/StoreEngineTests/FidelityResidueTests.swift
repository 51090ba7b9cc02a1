import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// The residue of the fidelity audit (`Docs/Fidelity.md`): B73's sheet terms and N1–N7,
/// each test naming its row.
final class FidelityResidueTests: XCTestCase {
  enum C {
    static let audit = "AUDIT"
    static let other = "OTHER"
    static let lite: Product.ID = "com.example.audit.lite"
    static let pro: Product.ID = "com.example.audit.pro"
    static let news: Product.ID = "com.example.other.news"
    static let proCode = "PROCODE"
    static let liteCode = "LITECODE"
    static let newCode = "NEWCODE"
    static let month = SubscriptionPeriod(value: 1, unit: .month)

    static func make() -> Catalog {
      func product(_ id: Product.ID, group: String, level: Int, price: String, intro: [SubscriptionOffer] = [], codes: [SubscriptionOffer] = []) -> Product {
        Product(
          id: id, kind: .autoRenewableSubscription, referenceName: id.rawValue, price: Decimal(string: price) ?? 0,
          subscription: SubscriptionInfo(groupID: group, level: level, period: month, introductoryOffers: intro, codeOffers: codes))
      }
      let trial = SubscriptionOffer(kind: .introductory, id: "TRIAL", paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week))
      let proCode = SubscriptionOffer(
        kind: .code, id: proCode, referenceName: "Pro Code", paymentMode: .payAsYouGo, period: month, numberOfPeriods: 2,
        price: Decimal(string: "2.99") ?? 0, eligibility: ["new", "existing", "expired"])
      let liteCode = SubscriptionOffer(
        kind: .code, id: liteCode, referenceName: "Lite Code", paymentMode: .freeTrial, period: month, eligibility: ["existing"])
      let newCode = SubscriptionOffer(
        kind: .code, id: newCode, referenceName: "New Code", paymentMode: .payUpFront, period: month, price: Decimal(string: "0.99") ?? 0,
        eligibility: ["new"])
      return Catalog(
        products: [
          product(lite, group: audit, level: 2, price: "4.99", intro: [trial], codes: [liteCode]),
          product(pro, group: audit, level: 1, price: "9.99", codes: [proCode]),
          product(news, group: other, level: 1, price: "2.99", codes: [newCode]),
        ],
        subscriptionGroups: [
          SubscriptionGroup(id: audit, name: "Audit", productIDs: [lite, pro]),
          SubscriptionGroup(id: other, name: "Other", productIDs: [news]),
        ])
    }
  }

  func makeStore(dialogs: Bool = false) throws -> TestStore {
    let store = try TestStore(catalog: C.make(), dialogs: dialogs)
    try store.queue.perform(.setNotificationURL(environment: "Sandbox", url: "http://127.0.0.1:9/hook"))
    return store
  }

  @discardableResult
  func buy(_ store: TestStore, _ product: Product.ID, offer: String? = nil, username: String? = nil) throws -> PaymentTransaction {
    let id = try store.queue.add(Payment(productID: product, applicationUsername: username, offerID: offer))
    return try XCTUnwrap(try store.queue.transaction(id))
  }

  func sent(_ store: TestStore) -> [String] {
    store.ledger.outbox.map { [$0.notificationType.rawValue, $0.subtype?.rawValue].compactMap { $0 }.joined(separator: "/") }
  }

  func statusChanges(_ step: StoreStep) -> [String] {
    step.events.compactMap { if case .subscriptionChanged(_, let reason) = $0 { reason } else { nil } }
  }

  // MARK: B73

  func testB73TheSubscriptionSheetCarriesItsTermsAsData() throws {
    let store = try makeStore(dialogs: true)
    _ = try buy(store, C.lite)
    guard case .confirm(_, _, _, _, let price, let terms) = store.queue.prompt else { return XCTFail("no purchase sheet") }
    XCTAssertEqual(price, Money(0, currencyCode: "USD"))
    XCTAssertEqual(terms, SubscriptionTerms(
      regularPrice: Money(Decimal(string: "4.99") ?? 0, currencyCode: "USD"), regularPeriod: C.month,
      offer: .init(kind: .introductory, paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week), numberOfPeriods: 1,
                   price: Money(0, currencyCode: "USD"))))
    try store.queue.cancel()
    // An offer code's terms; a one-time purchase has none.
    _ = try buy(store, C.news, offer: C.newCode)
    guard case .confirm(_, _, _, _, _, let code) = store.queue.prompt else { return XCTFail("no purchase sheet") }
    XCTAssertEqual(code?.offer?.kind, .code)
    XCTAssertEqual(code?.offer?.paymentMode, .payUpFront)
    XCTAssertEqual(code?.offer?.price, Money(Decimal(string: "0.99") ?? 0, currencyCode: "USD"))
    XCTAssertEqual(code?.regularPrice, Money(Decimal(string: "2.99") ?? 0, currencyCode: "USD"))
    let plain = try TestStore(dialogs: true)
    _ = try plain.queue.add(Payment(productID: FixtureCatalog.coins))
    guard case .confirm(_, _, _, _, _, let none) = plain.queue.prompt else { return XCTFail("no purchase sheet") }
    XCTAssertNil(none)
  }

  // MARK: N1

  func testN1OfferCodeNewSubscriberEligibilityIsPerSubscriptionGroup() throws {
    let store = try makeStore()
    try buy(store, C.lite)
    let code = try buy(store, C.news, offer: C.newCode)
    XCTAssertEqual(code.state, .purchased, "never subscribed in the Other group: a new subscriber there")
    XCTAssertEqual(code.offerType, .code)
    XCTAssertEqual(code.price, Decimal(string: "0.99"))
    // In the group it has subscribed to, it is no new subscriber.
    try store.queue.expireSubscription(code.id)
    let again = try buy(store, C.news, offer: C.newCode)
    XCTAssertEqual(again.state, .failed)
    XCTAssertEqual(again.error, .ineligibleForOffer)
  }

  // MARK: N2

  func testN2AnOfferCodeOnAnUpgradeIsHonouredAsOfferRedeemedUpgrade() throws {
    let store = try makeStore()
    try buy(store, C.lite)
    let upgrade = try buy(store, C.pro, offer: C.proCode)
    XCTAssertEqual(upgrade.state, .purchased)
    XCTAssertEqual(upgrade.offerType, .code)
    XCTAssertEqual(upgrade.offerID, "Pro Code")
    XCTAssertEqual(upgrade.price, Decimal(string: "2.99"), "at the offer's price, never silently at 9.99")
    XCTAssertEqual(TestStore.payload(of: upgrade.signedTransaction)["offerType"] as? Int, 3)
    XCTAssertEqual(sent(store).last, "OFFER_REDEEMED/UPGRADE")
    // Pay as you go for two periods: the next renewal is at the offer price too, then the list price.
    try store.queue.advance(by: 62 * 86_400)
    let renewals = try store.queue.history().filter { $0.reason == .renewal && $0.productID == C.pro }
    XCTAssertEqual(renewals.map(\.price), [Decimal(string: "2.99"), Decimal(string: "9.99")])
  }

  func testN2AnOfferCodeOnADowngradeAppliesFromTheNextRenewalAsOfferRedeemedDowngrade() throws {
    let store = try makeStore()
    try buy(store, C.pro)
    let downgrade = try buy(store, C.lite, offer: C.liteCode)
    XCTAssertEqual(downgrade.error, .unknown, "a downgrade bills nothing now (B45)")
    XCTAssertEqual(sent(store).last, "OFFER_REDEEMED/DOWNGRADE")
    XCTAssertEqual(store.queue.subscriptions().first?.renewalOffer?.offerID, C.liteCode)
    try store.queue.advance(by: 31 * 86_400)
    let renewal = try XCTUnwrap(try store.queue.history().last { $0.reason == .renewal })
    XCTAssertEqual(renewal.productID, C.lite)
    XCTAssertEqual(renewal.offerType, .code)
    XCTAssertEqual(renewal.price, 0, "the code's free month")
  }

  func testN2AnIneligibleOfferOnAPlanChangeIsRefusedNotDropped() throws {
    let store = try makeStore()
    try buy(store, C.lite)
    let unknown = try buy(store, C.pro, offer: "NOSUCH")
    XCTAssertEqual(unknown.state, .failed)
    XCTAssertEqual(unknown.error, .invalidOfferIdentifier)
    XCTAssertEqual(store.queue.subscriptions().first?.productID, C.lite, "nothing changed, nothing charged")
  }

  // MARK: N3

  func testN3SubscribingAgainAfterARefundIsAResubscribe() throws {
    let store = try makeStore()
    let first = try buy(store, C.pro)
    try store.queue.refund(first.id)
    let again = try buy(store, C.lite)
    XCTAssertEqual(again.state, .purchased)
    XCTAssertEqual(sent(store), ["SUBSCRIBED/INITIAL_BUY", "REFUND", "SUBSCRIBED/RESUBSCRIBE"])
    XCTAssertEqual(again.originalID, first.originalID, "the group's chain goes on")
    XCTAssertNil(again.offerType, "no second introductory offer in the group")
    XCTAssertEqual(store.queue.subscriptions().first?.status, .subscribed)
  }

  // MARK: N4

  func testN4RenewingAnExpiredSubscriptionAnnouncesTheStatusChange() throws {
    let store = try makeStore()
    let bought = try buy(store, C.pro)
    try store.queue.expireSubscription(bought.id)
    let step = try store.queue.perform(.renewSubscription(bought.id))
    XCTAssertEqual(statusChanges(step), ["renewed after it ended"])
    XCTAssertEqual(store.queue.subscriptions().first?.status, .subscribed)
    // A renewal of a subscribed chain is no status change.
    XCTAssertEqual(statusChanges(try store.queue.perform(.renewSubscription(bought.id))), [])
  }

  // MARK: N5

  func testN5TheRenewalInfoSignedAtPurchaseCarriesTheAppAccountToken() throws {
    let store = try makeStore()
    let token = "6f1b6c9e-1c3a-4a8e-9d2e-3b4c5d6e7f80"
    let bought = try buy(store, C.pro, username: token.uppercased())
    XCTAssertEqual(bought.appAccountToken, token)
    XCTAssertEqual(TestStore.payload(of: bought.signedRenewalInfo)["appAccountToken"] as? String, token)
    XCTAssertEqual(TestStore.payload(of: store.queue.subscriptions().first?.signedRenewalInfo)["appAccountToken"] as? String, token)
    // And on an upgrade, the new period's.
    let upgradeToken = "00000000-1c3a-4a8e-9d2e-3b4c5d6e7f80"
    let other = try makeStore()
    try buy(other, C.lite)
    let upgrade = try buy(other, C.pro, username: upgradeToken)
    XCTAssertEqual(TestStore.payload(of: upgrade.signedRenewalInfo)["appAccountToken"] as? String, upgradeToken)
  }

  // MARK: N7

  func testN7APriceIncreaseIsRefusedOnAnEndedSubscription() throws {
    let store = try makeStore()
    let bought = try buy(store, C.pro)
    try store.queue.expireSubscription(bought.id)
    let before = store.queue.subscriptions().first?.signedRenewalInfo
    XCTAssertThrowsError(try store.queue.requestPriceIncrease(bought.id)) { XCTAssertEqual($0 as? EngineError, .subscriptionEnded(bought.id)) }
    XCTAssertThrowsError(try store.queue.answerPriceIncrease(bought.id, consent: true)) {
      XCTAssertEqual($0 as? EngineError, .subscriptionEnded(bought.id))
    }
    XCTAssertEqual(store.queue.subscriptions().first?.signedRenewalInfo, before, "not re-signed")
    XCTAssertNil(store.queue.subscriptions().first?.increasedPrice)
    // An active one still takes it.
    let active = try buy(store, C.news)
    XCTAssertNoThrow(try store.queue.requestPriceIncrease(active.id))
  }
}
