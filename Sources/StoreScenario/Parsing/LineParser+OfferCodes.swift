import Foundation
import StoreEngine

extension LineParser {
  /// `offer-codes generate PRODUCT OFFER count=N [expires=DURATION] [price=X]` and
  /// `offer-codes create CODE PRODUCT OFFER [limit=N] [expires=DURATION] [price=X]` (B87): App Store
  /// Connect's one-time-use codes (random, from the store's seeded generator) and custom codes.
  mutating func offerCodes() throws(ScenarioIssue) -> ScenarioStep.Action {
    let what = try next("'generate' or 'create'")
    switch what.text {
    case "generate":
      let offer = try codeOffer()
      var count = 1
      if let option = option("count") {
        guard let value = Int(option.value), value >= 1, value <= 10_000 else {
          throw issue(option.column, "Invalid count '\(option.value)'; use a whole number from 1 to 10000.")
        }
        count = value
      }
      return .command(.offerCodes(.generate(offer, count: count, expires: try codeExpiry())))
    case "create":
      let code = try next("the custom code (letters and digits, such as SPRING25)").text
      let offer = try codeOffer()
      var limit = 1
      if let option = option("limit") {
        guard let value = Int(option.value), value >= 1 else {
          throw issue(option.column, "Invalid limit '\(option.value)'; use a whole number from 1.")
        }
        limit = value
      }
      return .command(.offerCodes(.create(code, offer, limit: limit, expires: try codeExpiry())))
    default:
      throw issue(what.column, "Unknown 'offer-codes' action '\(what.text)'; use generate or create.")
    }
  }

  /// `redeem CODE`, `redeem next-one-time` (the first one-time code nobody redeemed yet) or
  /// `redeem last-code` (the code the previous `redeem` typed again).
  mutating func redeem() throws(ScenarioIssue) -> ScenarioStep.Action {
    let token = try next("an offer code, next-one-time or last-code")
    switch token.text {
    case "next-one-time": return .redeem(.nextOneTime)
    case "last-code": return .redeem(.last)
    default: return .redeem(.typed(token.text))
    }
  }

  private mutating func codeOffer() throws(ScenarioIssue) -> OfferCodeOffer {
    let product = try product()
    let offer = try next("the offer (a subscription's code offer id or reference name, another product's offer name)")
    var price: Decimal?
    if let option = option("price") {
      guard let value = Decimal(string: option.value, locale: Locale(identifier: "en_US_POSIX")), value >= 0 else {
        throw issue(option.column, "Invalid price '\(option.value)'; use a number such as 0 or 0.99.")
      }
      price = value
    }
    return OfferCodeOffer(productID: product, offer: offer.text, price: price)
  }

  private mutating func codeExpiry() throws(ScenarioIssue) -> OfferCodeExpiry? {
    guard let option = option("expires") else { return nil }
    if let date = ISO8601DateFormatter().date(from: option.value) { return .at(date) }
    return .after(try duration(option.value, column: option.column).components)
  }

  /// `expect offer-codes N`, `expect redemptions CODE N`, `expect offer REF KIND MODE`,
  /// `expect price REF AMOUNT`.
  mutating func offerCodeExpectation(_ subject: String) throws(ScenarioIssue) -> ScenarioStep.Expectation? {
    switch subject {
    case "offer-codes": return .offerCodes(try integer("a count", range: 0...1_000_000))
    case "redemptions":
      let code = try next("an offer code or last-code").text
      return .redemptions(code, try integer("a count", range: 0...1_000_000))
    case "offer":
      let reference = try reference()
      let kind = try next("an offer kind (introductory, promotional, code, winBack) or none")
      if kind.text == "none" { return .offer(reference, kind: nil, mode: nil) }
      guard ["introductory", "promotional", "code", "winBack"].contains(kind.text) else {
        throw issue(kind.column, "Unknown offer kind '\(kind.text)'; use introductory, promotional, code, winBack or none.")
      }
      let mode = try next("a payment mode (free, payAsYouGo, payUpFront, oneTime)")
      guard SubscriptionOffer.PaymentMode(rawValue: mode.text) != nil else {
        throw issue(mode.column, "Unknown payment mode '\(mode.text)'; use free, payAsYouGo, payUpFront or oneTime.")
      }
      return .offer(reference, kind: kind.text, mode: mode.text)
    case "price":
      let reference = try reference()
      let token = try next("an amount such as 0 or 0.99")
      guard let amount = Decimal(string: token.text, locale: Locale(identifier: "en_US_POSIX")) else {
        throw issue(token.column, "Invalid amount '\(token.text)'; use a number such as 0 or 0.99.")
      }
      return .price(reference, amount)
    default: return nil
    }
  }
}

extension SubscriptionOffer.Kind {
  /// The kind's name in scenario lines.
  var scenarioName: String {
    switch self {
    case .introductory: "introductory"
    case .promotional: "promotional"
    case .code: "code"
    case .winBack: "winBack"
    }
  }
}
