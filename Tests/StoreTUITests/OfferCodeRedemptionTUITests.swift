import Foundation
import StoreEngine
import StoreTUI
import StorefrontTestSupport
import Testing

/// B87–B89 in the TUI's Redeem Code sheet: a generated code, or its redemption URL, buys its
/// product at the code's price; a code used up is refused with the store's reason, nothing bought.
@MainActor
@Suite struct OfferCodeRedemptionTUITests {
  func type(_ text: String, into runtime: AppRuntime) {
    for character in text { runtime.send(.key(.char(character))) }
  }

  @Test func aRedemptionURLBuysTheCodesProductAndAUsedCodeIsRefused() throws {
    let store = try TestStore(dialogs: true)
    let offer = OfferCodeOffer(productID: FixtureCatalog.coins, offer: "gift", price: Decimal(string: "0.49"))
    try store.queue.perform(.offerCodes(.create("GIFT", offer, limit: 1, expires: nil)))
    let runtime = try AppRuntime(queue: store.queue, size: standardSize)
    runtime.send(.key(.char("1")))
    runtime.send(.key(.char("o")))
    #expect(runtime.render().plainText.contains("or its redemption URL"))
    #expect(runtime.render().plainText.contains("GIFT  0/1 redeemed  \(FixtureCatalog.coins.rawValue)  gift"), "the sheet lists the store's codes")
    type("https://apps.apple.com/redeem?ctx=offercodes&id=0&code=gift", into: runtime)
    runtime.send(.key(.enter))
    let sheet = runtime.render().plainText
    #expect(sheet.contains("0.49"), "the sheet states the code's price: \(sheet)")
    runtime.send(.key(.enter))
    let bought = try #require(try store.queue.history().first { $0.state == .purchased })
    #expect(bought.productID == FixtureCatalog.coins)
    #expect(bought.price == Decimal(string: "0.49"))
    #expect(bought.offerPaymentMode == .oneTime)

    try store.queue.signIn("someone-else")
    runtime.send(.key(.char("o")))
    type("GIFT", into: runtime)
    runtime.send(.key(.enter))
    #expect(runtime.state.notice?.text.contains("reached its redemption limit") == true, "\(String(describing: runtime.state.notice))")
    runtime.send(.key(.char("o")))
    #expect(runtime.render().plainText.contains("GIFT  1/1 redeemed  used up"), "\(runtime.render().plainText)")
    runtime.send(.key(.escape))
    #expect(try store.queue.history().isEmpty, "nothing bought for the second customer")
  }
}
