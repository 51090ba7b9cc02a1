import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// B50: `o` opens the App Store's offer-code redemption sheet; the code typed in buys the code's
/// subscription through the purchase sheet, which states the code's terms (B73).
@MainActor
@Suite struct RedeemCodeSheetTests {
  static func catalog() -> Catalog {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let code = SubscriptionOffer(kind: .code, id: "SPRING1", referenceName: "Spring", paymentMode: .freeTrial, period: month)
    let product = Product(
      id: "com.example.plus", kind: .autoRenewableSubscription, referenceName: "Plus", price: Decimal(string: "4.99") ?? 0,
      subscription: SubscriptionInfo(groupID: "PLUS", level: 1, period: month, codeOffers: [code]))
    return Catalog(products: [product], subscriptionGroups: [SubscriptionGroup(id: "PLUS", name: "Plus", productIDs: [product.id])])
  }

  func type(_ text: String, into runtime: AppRuntime) {
    for character in text { runtime.send(.key(.char(character))) }
  }

  /// An attached app's sheet (its `presentCodeRedemptionSheet()`): what is typed goes to the app,
  /// and Esc tells it the sheet was cancelled; nothing is redeemed here.
  @Test func anAttachedAppsCodeSheetAnswersTheApp() throws {
    let store = try TestStore(catalog: Self.catalog(), dialogs: true)
    var state = try AppRuntime(queue: store.queue, size: standardSize).state
    send(&state, .attachedCodeSheetPresented(session: "app-1", app: "com.example.attached"))
    #expect(render(state).plainText.contains("com.example.attached"))
    let commands = send(&state, typing("spring1") + [.key(.enter)])
    #expect(commands == [.answerCodeSheet(session: "app-1", code: "spring1")])
    #expect(state.sheet == nil)
    send(&state, .attachedCodeSheetPresented(session: "app-1", app: "com.example.attached"))
    #expect(send(&state, .key(.escape)) == [.answerCodeSheet(session: "app-1", code: nil)])
    send(&state, .attachedCodeSheetPresented(session: "app-1", app: "com.example.attached"), .attachedCodeSheetWithdrawn)
    #expect(state.sheet == nil, "the app quit: its sheet goes")
  }

  @Test func aRedeemedCodeBuysTheSubscriptionThroughASheetStatingTheOffer() throws {
    let store = try TestStore(catalog: Self.catalog(), dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.char("1")))
    runtime.send(.key(.char("o")))
    #expect(runtime.render().plainText.contains("Redeem Code"))
    type("spring1", into: runtime)
    runtime.send(.key(.enter))
    let screen = runtime.render().plainText
    #expect(screen.contains("Start your free trial of Plus?"), "\(screen)")
    #expect(screen.contains("Offer code: 1 month free, then $4.99/month."), "\(screen)")
    runtime.send(.key(.enter))
    let bought = try #require(try store.queue.history().first { $0.state == .purchased })
    #expect(bought.productID == "com.example.plus")
    #expect(bought.offerType == .code)
  }

  @Test func anUnknownCodeBuysNothingAndSaysSo() throws {
    let store = try TestStore(catalog: Self.catalog(), dialogs: true)
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.char("1")))
    runtime.send(.key(.char("o")))
    type("NOPE", into: runtime)
    runtime.send(.key(.enter))
    #expect(try store.queue.history().isEmpty)
    #expect(runtime.state.notice?.text.contains("'NOPE' is not an offer code") == true, "\(String(describing: runtime.state.notice))")
  }
}
