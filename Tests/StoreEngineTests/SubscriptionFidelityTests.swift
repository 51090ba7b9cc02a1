import Foundation
import StoreEngine
import StorefrontTestSupport
import XCTest

/// Apple's subscription behaviours from the fidelity audit (`Docs/Fidelity.md`); each
/// test names its row.
final class SubscriptionFidelityTests: XCTestCase {
  typealias O = OfferCatalog
  let day: TimeInterval = 86_400
  let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    return calendar
  }()

  final class Store {
    let queue: PaymentQueue
    let events = EventLog()
    var token: Subscription?
    init(dialogs: Bool = false) throws {
      var environment = TestStore.environment
      environment.offerSignatureVerifier = TestOfferKey()
      queue = try PaymentQueue(catalog: OfferCatalog.make(), ledger: InMemoryLedgerStore(), environment: environment)
      try queue.signIn("tester")
      try queue.set(.dialogs(dialogs))
      let events = self.events
      token = queue.bus.subscribe(StoreEvent.self) { events.append($0) }
    }

    @discardableResult
    func buy(_ product: Product.ID, offer: String? = nil, discount: PaymentDiscount? = nil, username: String? = nil) throws -> PaymentTransaction {
      let id = try queue.add(Payment(productID: product, applicationUsername: username, offerID: offer, discount: discount))
      return try XCTUnwrap(try queue.transaction(id))
    }

    var record: SubscriptionRecord? { queue.subscriptions().first }
    /// The current renewal info, decoded.
    var renewalInfo: [String: Any] { TestStore.payload(of: record?.signedRenewalInfo) }
    func purchased() throws -> [PaymentTransaction] { try queue.history().filter { $0.state == .purchased } }
    func month(_ count: Int, from date: Date = TestStore.start) -> Date {
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
      return calendar.date(byAdding: .month, value: count, to: date) ?? date
    }
  }

  func discount(for product: Product.ID, offer: String, at date: Date, username: String? = nil, valid: Bool = true) -> PaymentDiscount {
    let nonce = UUID(uuidString: "4F3B1C2D-0000-4000-8000-000000000001") ?? UUID()
    let timestamp = SignedPayloads.milliseconds(date)
    let message = PaymentDiscount.message(
      bundleID: StoreEnvironment.defaultBundleID, keyIdentifier: TestOfferKey.keyID, productID: product, offerID: offer,
      applicationUsername: username, nonce: nonce, timestamp: timestamp)
    let signature = valid ? TestOfferKey.signature(of: message) : TestOfferKey.signature(of: Data("tampered".utf8))
    return PaymentDiscount(identifier: offer, keyIdentifier: TestOfferKey.keyID, nonce: nonce, signature: signature, timestamp: timestamp)
  }

  // MARK: B24

  func testB24BuyingTheActiveSubscriptionAgainFailsWithoutASheetOrCharge() throws {
    let store = try Store(dialogs: true)
    let first = try store.buy(O.basic)
    try store.queue.confirm()
    let again = try store.buy(O.basic)
    XCTAssertNil(store.queue.prompt, "no purchase sheet for a subscription the account already has")
    XCTAssertEqual(again.state, .failed)
    XCTAssertEqual(again.error, .unknown)
    XCTAssertEqual(again.price, 0)
    XCTAssertNil(again.signedTransaction)
    XCTAssertEqual(again.subscribedTransactionID, first.id, "what StoreKit 2's purchase() returns")
    XCTAssertEqual(try store.purchased().count, 1)
  }

  // MARK: B33

  func testB33PayAsYouGoIntroBillsEachPeriodThenTheRegularPrice() throws {
    let store = try Store()
    let first = try store.buy(O.basic)
    XCTAssertEqual(first.price, O.price("1.99"))
    XCTAssertEqual(first.expiresDate, store.month(1))
    XCTAssertEqual(first.offerPeriod, "P3M")
    XCTAssertEqual(TestStore.payload(of: first.signedTransaction)["offerPeriod"] as? String, "P3M")
    // The renewal info describes the offer the next renewal uses.
    XCTAssertEqual(store.renewalInfo["offerType"] as? Int, 1)
    XCTAssertEqual(store.renewalInfo["offerDiscountType"] as? String, "PAY_AS_YOU_GO")
    XCTAssertEqual(store.renewalInfo["renewalPrice"] as? Int, 1990)
    try store.queue.advance(by: 95 * day)
    let periods = try store.purchased()
    XCTAssertEqual(periods.map(\.price), [O.price("1.99"), O.price("1.99"), O.price("1.99"), O.price("9.99")])
    XCTAssertEqual(periods.map(\.offerType), [.introductory, .introductory, .introductory, nil])
    XCTAssertEqual(periods.map(\.purchaseDate), [TestStore.start, store.month(1), store.month(2), store.month(3)])
    XCTAssertNil(store.renewalInfo["offerType"])
    XCTAssertEqual(store.renewalInfo["renewalPrice"] as? Int, 9990)
  }

  func testB33PayAsYouGoPromotionalOfferBillsEachPeriod() throws {
    let store = try Store()
    try store.queue.expireSubscription(store.buy(O.basic).id)
    let promo = try store.buy(O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now))
    XCTAssertEqual(promo.state, .purchased)
    XCTAssertEqual(promo.offerType, .promotional)
    XCTAssertEqual(promo.price, O.price("4.99"))
    XCTAssertEqual(promo.expiresDate, store.month(1))
    try store.queue.advance(by: 62 * day)
    let renewals = try store.purchased().filter { $0.reason == .renewal }
    XCTAssertEqual(renewals.map(\.price), [O.price("4.99"), O.price("9.99")])
    XCTAssertEqual(renewals.first?.offerID, O.promo)
  }

  // MARK: B39

  func testB39GracePeriodKeepsFullAccessUntilGraceEnds() throws {
    let store = try Store()
    try store.buy(O.basic, offer: nil)
    try store.queue.set(.billingRetry(true))
    try store.queue.set(.gracePeriod(true))
    try store.queue.advance(by: 32 * day)
    XCTAssertEqual(store.record?.status, .inGracePeriod)
    XCTAssertTrue(try store.queue.entitlements().owns(O.basic))
    try store.queue.advance(by: 30 * day)
    XCTAssertEqual(store.record?.status, .inBillingRetry)
    XCTAssertFalse(try store.queue.entitlements().owns(O.basic))
  }

  func testB39RecoveringInsideGraceKeepsTheRenewalDate() throws {
    let store = try Store()
    let first = try store.buy(O.basic)
    try store.queue.set(.billingRetry(true))
    try store.queue.set(.gracePeriod(true))
    try store.queue.advance(by: 33 * day)
    try store.queue.set(.billingRetry(false))
    try store.queue.resolveBillingIssue(first.id)
    let renewal = try XCTUnwrap(try store.purchased().last)
    XCTAssertEqual(renewal.purchaseDate, store.month(1), "no paid day is lost")
    XCTAssertEqual(renewal.expiresDate, store.month(2))
  }

  // MARK: B40

  func testB40RenewalInfoIsSignedWheneverItChanges() throws {
    let store = try Store()
    let first = try store.buy(O.basic)
    try store.queue.setAutoRenew(false, for: first.id)
    XCTAssertEqual(store.renewalInfo["autoRenewStatus"] as? Int, 0)
    XCTAssertNil(store.renewalInfo["expirationIntent"], "only an expired subscription has an expiration intent")
    guard case .subscriptionChanged(let record, _) = store.events.events.last else { return XCTFail("\(store.events.events)") }
    XCTAssertEqual(TestStore.payload(of: record.signedRenewalInfo)["autoRenewStatus"] as? Int, 0)
    try store.queue.setAutoRenew(true, for: first.id)
    try store.queue.set(.billingRetry(true))
    try store.queue.set(.gracePeriod(true))
    try store.queue.advance(by: 32 * day)
    XCTAssertEqual(store.renewalInfo["isInBillingRetryPeriod"] as? Bool, true)
    XCTAssertNotNil(store.renewalInfo["gracePeriodExpiresDate"])
    try store.queue.advance(by: 100 * day)
    XCTAssertEqual(store.record?.status, .expired)
    XCTAssertEqual(store.renewalInfo["expirationIntent"] as? Int, 2)
    XCTAssertEqual(store.renewalInfo["autoRenewStatus"] as? Int, 0)
  }

  func testB40TransactionsCarryTheCurrentRenewalInfo() throws {
    let store = try Store()
    try store.buy(O.basic)
    try store.queue.advance(by: 32 * day)
    let renewal = try XCTUnwrap(try store.purchased().last)
    XCTAssertEqual(renewal.signedRenewalInfo, store.record?.signedRenewalInfo)
    XCTAssertEqual(TestStore.payload(of: renewal.signedRenewalInfo)["renewalDate"] as? Int,
                   renewal.expiresDate.map(SignedPayloads.milliseconds).map(Int.init))
  }

  // MARK: B48

  func testB48UnansweredPriceIncreaseExpiresTheSubscription() throws {
    let store = try Store()
    let first = try store.buy(O.basicAlt)
    try store.queue.requestPriceIncrease(first.id, to: O.price("12.99"))
    XCTAssertEqual(store.renewalInfo["priceIncreaseStatus"] as? Int, 0)
    XCTAssertEqual(store.renewalInfo["renewalPrice"] as? Int, 12990)
    try store.queue.advance(by: 32 * day)
    XCTAssertEqual(store.record?.status, .expired)
    XCTAssertEqual(store.record?.expirationIntent, .priceIncreaseNotConsented)
    XCTAssertEqual(store.renewalInfo["expirationIntent"] as? Int, 3)
    XCTAssertEqual(try store.purchased().count, 1)
  }

  func testB48AcceptedPriceIncreaseRenewsAtTheNewPrice() throws {
    let store = try Store()
    let first = try store.buy(O.basicAlt)
    try store.queue.requestPriceIncrease(first.id)
    XCTAssertEqual(store.record?.increasedPrice, O.price("13.19"), "without a price: 20 % more")
    try store.queue.answerPriceIncrease(first.id, consent: true)
    XCTAssertEqual(store.renewalInfo["priceIncreaseStatus"] as? Int, 1)
    try store.queue.advance(by: 62 * day)
    XCTAssertEqual(try store.purchased().map(\.price), [O.price("10.99"), O.price("13.19"), O.price("13.19")])
    XCTAssertEqual(store.renewalInfo["renewalPrice"] as? Int, 13190)
  }

  // MARK: B43

  func testB43RenewAfterExpiryResumesAndClearsTheExpirationIntent() throws {
    let store = try Store()
    let first = try store.buy(O.basicAlt)
    try store.queue.setAutoRenew(false, for: first.id)
    try store.queue.advance(by: 32 * day)
    XCTAssertEqual(store.renewalInfo["expirationIntent"] as? Int, 1)
    try store.queue.forceRenewal(first.id)
    XCTAssertEqual(store.record?.status, .subscribed)
    XCTAssertEqual(store.record?.autoRenew, true)
    XCTAssertNil(store.record?.expirationIntent)
    XCTAssertNil(store.renewalInfo["expirationIntent"])
    XCTAssertEqual(store.renewalInfo["autoRenewStatus"] as? Int, 1)
  }

  // MARK: B37

  func testB37ResubscribingKeepsTheSubscriptionsHistory() throws {
    let store = try Store()
    let first = try store.buy(O.basicAlt)
    try store.queue.setAutoRenew(false, for: first.id)
    try store.queue.advance(by: 40 * day)
    let again = try store.buy(O.basic)
    XCTAssertEqual(again.originalID, first.id)
    XCTAssertEqual(again.originalPurchaseDate, TestStore.start)
    XCTAssertNil(again.offerType, "no introductory offer a second time")
    XCTAssertEqual(again.price, O.price("9.99"))
    XCTAssertEqual(store.queue.subscriptions().count, 1)
    XCTAssertEqual(store.renewalInfo["recentSubscriptionStartDate"] as? Int, Int(SignedPayloads.milliseconds(again.purchaseDate)))
    XCTAssertEqual(TestStore.payload(of: again.signedTransaction)["originalTransactionId"] as? String, first.id.description)
  }

  func testB37ALapseOfTenMinutesOrLessKeepsTheRecentStartDate() throws {
    let store = try Store()
    let first = try store.buy(O.basicAlt)
    try store.queue.advance(by: 3 * day)
    try store.queue.expireSubscription(first.id)
    try store.queue.advance(by: 300)
    try store.buy(O.basicAlt)
    XCTAssertEqual(store.renewalInfo["recentSubscriptionStartDate"] as? Int, Int(SignedPayloads.milliseconds(TestStore.start)))
  }

  // MARK: B44, B46

  func testB44UpgradeTakesEffectAtOnceWithANewLineItem() throws {
    let store = try Store()
    let basic = try store.buy(O.basicAlt)
    try store.queue.advance(by: 3 * day)
    let plus = try store.buy(O.plus)
    XCTAssertEqual(plus.state, .purchased)
    XCTAssertEqual(plus.price, O.price("19.99"))
    XCTAssertEqual(plus.originalID, basic.id)
    XCTAssertNotEqual(plus.webOrderLineItemID, basic.webOrderLineItemID)
    XCTAssertTrue(try store.queue.transaction(basic.id)?.isUpgraded ?? false)
    XCTAssertEqual(TestStore.payload(of: try store.queue.transaction(basic.id)?.signedTransaction)["isUpgraded"] as? Bool, true)
    XCTAssertTrue(store.events.events.contains { if case .transactionsAmended(let list) = $0 { list.contains { $0.id == basic.id } } else { false } })
    XCTAssertFalse(try store.queue.entitlements().owns(O.basicAlt))
    XCTAssertTrue(try store.queue.entitlements().owns(O.plus))
    XCTAssertEqual(store.renewalInfo["productId"] as? String, O.plus.rawValue)
    XCTAssertEqual(store.renewalInfo["autoRenewProductId"] as? String, O.plus.rawValue)
  }

  func testB46CrossgradeOfTheSameDurationTakesEffectAtOnce() throws {
    let store = try Store()
    try store.buy(O.basicAlt)
    let cross = try store.buy(O.basic)
    XCTAssertEqual(cross.state, .purchased)
    XCTAssertEqual(cross.price, O.price("9.99"))
    XCTAssertTrue(try store.queue.entitlements().owns(O.basic))
    XCTAssertFalse(try store.queue.entitlements().owns(O.basicAlt))
  }

  // MARK: B45, B46

  func testB45DowngradeChangesOnlyTheRenewalInfoUntilTheNextRenewal() throws {
    let store = try Store()
    let basic = try store.buy(O.basicAlt)
    let down = try store.buy(O.lite)
    XCTAssertEqual(down.state, .failed, "no transaction: StoreKit 1 reports the payment failed (forums/thread/112663)")
    XCTAssertNil(down.signedTransaction)
    XCTAssertEqual(down.subscribedTransactionID, basic.id)
    XCTAssertEqual(try store.purchased().count, 1)
    XCTAssertEqual(store.renewalInfo["autoRenewProductId"] as? String, O.lite.rawValue)
    XCTAssertEqual(store.renewalInfo["renewalPrice"] as? Int, 4990)
    XCTAssertTrue(try store.queue.entitlements().owns(O.basicAlt))
    try store.queue.advance(by: 32 * day)
    let renewal = try XCTUnwrap(try store.purchased().last)
    XCTAssertEqual(renewal.productID, O.lite)
    XCTAssertEqual(renewal.price, O.price("4.99"))
    XCTAssertTrue(try store.queue.entitlements().owns(O.lite))
  }

  func testB46CrossgradeOfAnotherDurationWaitsForTheNextRenewal() throws {
    let store = try Store()
    try store.buy(O.basicAlt)
    let cross = try store.buy(O.basicYearly)
    XCTAssertEqual(cross.state, .failed)
    XCTAssertEqual(store.renewalInfo["autoRenewProductId"] as? String, O.basicYearly.rawValue)
    try store.queue.advance(by: 32 * day)
    XCTAssertEqual(try store.purchased().last?.productID, O.basicYearly)
  }

  // MARK: Line items, usernames, storefronts

  func testEveryPurchaseAndRenewalHasItsOwnLineItemID() throws {
    let store = try Store()
    try store.buy(O.basicAlt, username: "player-7")
    try store.queue.advance(by: 62 * day)
    let periods = try store.purchased()
    let items = periods.compactMap(\.webOrderLineItemID)
    XCTAssertEqual(Set(items).count, 3)
    XCTAssertTrue(items.allSatisfy { $0 > 2_000_000_070_000_000 && String($0).count == 16 })
    XCTAssertEqual(periods.first?.applicationUsername, "player-7")
    XCTAssertEqual(periods.dropFirst().map(\.applicationUsername), [nil, nil], "renewals have no payment username")
  }

  func testB61RenewalsBillInTheCurrentStorefront() throws {
    let store = try Store()
    try store.buy(O.basicAlt)
    try store.queue.set(.storefront("FRA"))
    try store.queue.advance(by: 32 * day)
    let renewal = try XCTUnwrap(try store.purchased().last)
    XCTAssertEqual(renewal.storefront, "FRA")
    XCTAssertEqual(renewal.currency, "EUR")
  }

  // MARK: B50

  func testB50OfferCodeSignsItsReferenceNameAndChecksEligibility() throws {
    let store = try Store()
    let refused = try store.buy(O.basic, offer: O.code)
    XCTAssertEqual(refused.state, .failed, "the code is for expired subscribers only")
    XCTAssertEqual(refused.error, .ineligibleForOffer)
    XCTAssertNil(store.record, "nothing was bought")
    try store.queue.expireSubscription(store.buy(O.basicAlt).id)
    let redeemed = try store.buy(O.basic, offer: O.code)
    XCTAssertEqual(redeemed.state, .purchased)
    let payload = TestStore.payload(of: redeemed.signedTransaction)
    XCTAssertEqual(payload["offerType"] as? Int, 3)
    XCTAssertEqual(payload["offerIdentifier"] as? String, "Spring Code")
    XCTAssertEqual(payload["price"] as? Int, 990)
  }

  // MARK: B51

  func testB51PromotionalOfferNeedsAValidSignature() throws {
    let store = try Store()
    try store.queue.expireSubscription(store.buy(O.basicAlt).id)
    let missing = try store.buy(O.basic, offer: O.promo)
    XCTAssertEqual(missing.error, .missingOfferParams)
    let wrong = try store.buy(O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now, valid: false))
    XCTAssertEqual(wrong.error, .invalidSignature)
    let otherUser = try store.buy(
      O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now), username: "someone-else")
    XCTAssertEqual(otherUser.error, .invalidSignature, "the signature covers the application username")
    let stale = try store.buy(O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now.addingTimeInterval(-2 * day)))
    XCTAssertEqual(stale.error, .invalidSignature, "a signature is good for 24 hours")
    XCTAssertEqual(try store.purchased().count, 1, "nothing was charged")
    let good = try store.buy(O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now))
    XCTAssertEqual(good.state, .purchased)
    XCTAssertEqual(TestStore.payload(of: good.signedTransaction)["offerIdentifier"] as? String, O.promo)
  }

  func testB51WithoutAnIssuedKeyEverySignedOfferIsInvalid() throws {
    let store = try TestStore()  // no offer-signature verifier in its environment
    try store.queue.expireSubscription(store.buy(FixtureCatalog.monthly).id)
    let payment = Payment(
      productID: FixtureCatalog.monthly, offerID: "winback50",
      discount: discount(for: FixtureCatalog.monthly, offer: "winback50", at: store.queue.now))
    let id = try store.queue.add(payment)
    XCTAssertEqual(try store.queue.transaction(id)?.error, .invalidSignature)
  }

  func testB51PromotionalOfferIsForExistingOrFormerSubscribersOnly() throws {
    let store = try Store()
    let newcomer = try store.buy(O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now))
    XCTAssertEqual(newcomer.error, .ineligibleForOffer)
    XCTAssertNil(store.record, "nothing was bought, and the introductory offer is still there")
  }

  func testB51SubscribersPromotionalOfferStartsAtTheNextRenewal() throws {
    let store = try Store()
    let first = try store.buy(O.basic)
    try store.queue.advance(by: 95 * day)  // past the three introductory periods
    let promo = try store.buy(O.basic, offer: O.promo, discount: discount(for: O.basic, offer: O.promo, at: store.queue.now))
    XCTAssertEqual(promo.state, .failed, "nothing is charged now; StoreKit 2 gets the current transaction")
    XCTAssertNotNil(promo.subscribedTransactionID)
    XCTAssertEqual(store.renewalInfo["offerType"] as? Int, 2)
    XCTAssertEqual(store.renewalInfo["offerIdentifier"] as? String, O.promo)
    XCTAssertEqual(store.renewalInfo["renewalPrice"] as? Int, 4990)
    try store.queue.advance(by: 92 * day)
    let renewals = try store.purchased().filter { $0.reason == .renewal }.suffix(3)
    XCTAssertEqual(renewals.map(\.price), [O.price("4.99"), O.price("4.99"), O.price("9.99")])
    XCTAssertEqual(renewals.first?.originalID, first.id)
  }

  // MARK: B52

  func testB52UnknownOfferIDFailsAndKeepsTheTrialEligibility() throws {
    let store = try Store()
    let refused = try store.buy(O.basic, offer: "no.such.offer")
    XCTAssertEqual(refused.state, .failed)
    XCTAssertEqual(refused.error, .invalidOfferIdentifier)
    XCTAssertEqual(refused.error?.code, 11)
    XCTAssertTrue(try store.purchased().isEmpty)
    let first = try store.buy(O.basic)
    XCTAssertEqual(first.offerType, .introductory, "the introductory offer is still there")
  }

  func testB52IneligibleOfferFailsWithCode18() throws {
    let store = try Store()
    let refused = try store.buy(O.basic, offer: O.winBack)
    XCTAssertEqual(refused.error, .ineligibleForOffer)
    XCTAssertEqual(refused.error?.code, 18)
    XCTAssertTrue(try store.purchased().isEmpty)
  }

  // MARK: B53

  func testB53WinBackOfferOnlyForLapsedSubscribers() throws {
    let store = try Store()
    let first = try store.buy(O.basic)
    XCTAssertEqual(try store.buy(O.basic, offer: O.winBack).error, .ineligibleForOffer, "still subscribed")
    XCTAssertNil(store.renewalInfo["eligibleWinBackOfferIds"])
    try store.queue.expireSubscription(first.id)
    XCTAssertEqual(store.renewalInfo["eligibleWinBackOfferIds"] as? [String], [O.winBack])
    let back = try store.buy(O.basic, offer: O.winBack)
    XCTAssertEqual(back.state, .purchased)
    XCTAssertEqual(back.offerType, .winBack)
    XCTAssertEqual(TestStore.payload(of: back.signedTransaction)["offerType"] as? Int, 4)
    XCTAssertEqual(back.price, O.price("1.99"))
  }
}
