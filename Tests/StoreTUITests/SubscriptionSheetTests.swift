import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// B73: the purchase sheet of an auto-renewable subscription states its terms (what is free or
/// discounted for how long, the price after it, that it renews until cancelled), not "buy one … for $0.00".
@MainActor
@Suite struct SubscriptionSheetTests {
  typealias Terms = PurchaseSheet.Terms
  let month = SubscriptionPeriod(value: 1, unit: .month)
  let week = SubscriptionPeriod(value: 1, unit: .week)
  let year = SubscriptionPeriod(value: 1, unit: .year)

  func sheetText(_ terms: Terms?, name: String = "Premium Monthly", price: String = "$0.00") -> String {
    let sheet = Sheet.purchase(PurchaseSheet(
      transaction: PaymentTransaction.ID(1), product: FixtureCatalog.monthly, productName: name, quantity: 1, price: price,
      alreadyOwned: false, terms: terms))
    let layout = SheetLayout(sheet: sheet, size: Size(width: 100, height: 30))
    return ([layout.title] + layout.lines.map(\.text) + layout.buttons.map(\.title)).joined(separator: "\n")
  }

  @Test func freeTrial() {
    let terms = Terms(regularPrice: "$4.99", regularPeriod: month, offer: .init(kind: .introductory, paymentMode: .freeTrial, period: week, numberOfPeriods: 1, price: "$0.00"))
    #expect(terms.summary == "1 week free, then $4.99/month.")
    #expect(sheetText(terms) == """
      Start Your Free Trial
      Start your free trial of Premium Monthly?
      1 week free, then $4.99/month.
      Renews automatically until cancelled.

      [Environment: Sandbox]
      Cancel
      Subscribe
      """)
  }

  @Test func freeTrialOfSeveralPeriodsStatesItsWholeLength() {
    let terms = Terms(regularPrice: "$4.99", regularPeriod: month, offer: .init(kind: .introductory, paymentMode: .freeTrial, period: week, numberOfPeriods: 2, price: "$0.00"))
    #expect(terms.summary == "2 weeks free, then $4.99/month.")
  }

  @Test func payAsYouGo() {
    let terms = Terms(regularPrice: "$9.99", regularPeriod: month, offer: .init(kind: .introductory, paymentMode: .payAsYouGo, period: month, numberOfPeriods: 3, price: "$1.99"))
    #expect(terms.summary == "$1.99/month for 3 months, then $9.99/month.")
    #expect(terms.question(productName: "Basic") == "Subscribe to Basic?")
    #expect(terms.title == "Subscribe")
  }

  @Test func payUpFront() {
    let terms = Terms(regularPrice: "$39.99", regularPeriod: year, offer: .init(kind: .introductory, paymentMode: .payUpFront, period: SubscriptionPeriod(value: 6, unit: .month), numberOfPeriods: 1, price: "$19.99"))
    #expect(terms.summary == "$19.99 for 6 months, then $39.99/year.")
  }

  @Test func promotionalWinBackAndOfferCodeNameTheirOffer() {
    let promotional = Terms(regularPrice: "$9.99", regularPeriod: month, offer: .init(kind: .promotional, paymentMode: .payAsYouGo, period: month, numberOfPeriods: 2, price: "$4.99"))
    #expect(promotional.summary == "Promotional offer: $4.99/month for 2 months, then $9.99/month.")
    let winBack = Terms(regularPrice: "$9.99", regularPeriod: month, offer: .init(kind: .winBack, paymentMode: .payUpFront, period: month, numberOfPeriods: 1, price: "$1.99"))
    #expect(winBack.summary == "Win-back offer: $1.99 for 1 month, then $9.99/month.")
    let code = Terms(regularPrice: "$9.99", regularPeriod: month, offer: .init(kind: .code, paymentMode: .freeTrial, period: month, numberOfPeriods: 1, price: "$0.00"))
    #expect(code.summary == "Offer code: 1 month free, then $9.99/month.")
    #expect(sheetText(code).contains("Start your free trial of Premium Monthly?"))
  }

  @Test func plainSubscription() {
    let terms = Terms(regularPrice: "$4.99", regularPeriod: month)
    #expect(sheetText(terms, price: "$4.99") == """
      Subscribe
      Subscribe to Premium Monthly?
      $4.99/month.
      Renews automatically until cancelled.

      [Environment: Sandbox]
      Cancel
      Subscribe
      """)
    #expect(Terms(regularPrice: "$24.99", regularPeriod: SubscriptionPeriod(value: 3, unit: .month)).summary == "$24.99 every 3 months.")
  }

  @Test func aOneTimePurchaseKeepsItsWording() {
    #expect(sheetText(nil, name: "100 Coins", price: "$0.99").contains("Do you want to buy one 100 Coins for $0.99?"))
  }

  @Test func theEnginesSheetForATrialStatesTheTrialAndTheRenewalPrice() throws {
    let store = try TestStore(dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    let row = try #require(runtime.state.row(of: FixtureCatalog.monthly))
    runtime.send(.key(.char("1")))
    runtime.send(.key(.home))
    for _ in 0..<row { runtime.send(.key(.down)) }
    runtime.send(.key(.enter))
    guard case .purchase(let sheet) = runtime.state.sheet else { Issue.record("no purchase sheet"); return }
    #expect(sheet.terms == Terms(regularPrice: "$2.99", regularPeriod: month, offer: .init(kind: .introductory, paymentMode: .freeTrial, period: week, numberOfPeriods: 1, price: "$0.00")))
    let screen = runtime.render().plainText
    #expect(screen.contains("Start your free trial of Premium Monthly?"))
    #expect(screen.contains("1 week free, then $2.99/month."))
    #expect(screen.contains("Renews automatically until cancelled."))
    #expect(!screen.contains("Do you want to buy"))
  }
}
