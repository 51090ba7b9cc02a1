import Foundation
import StoreEngine

extension LineParser {
  /// Parses the verb and its arguments into an action.
  mutating func parse() throws(ScenarioIssue) -> ScenarioStep.Action {
    switch verb.text {
    case "account":
      let name = try next("an account name")
      return .command(.signIn(name.text, password: option("password")?.value))
    case "signout": return .command(.signOut)
    case "family":
      guard !positionals.isEmpty else { throw issue(endColumn, "'family' needs the accounts of one family, the organizer first.") }
      defer { positionals = [] }
      return .command(.setFamily(positionals.map(\.text)))
    case "request":
      guard !positionals.isEmpty else { throw issue(endColumn, "'request' needs one or more product ids.") }
      defer { positionals = [] }
      return .command(.requestProducts(positionals.map(\.text)))
    case "buy":
      // B70: an id the catalog lacks is the store's to answer (`paymentInvalid`), so only a warning.
      let product = try product(unknownWarning: "the store will refuse the payment.")
      var quantity = 1
      if let option = option("quantity") {
        guard let value = Int(option.value), value >= 1 else {
          throw issue(option.column, "Invalid quantity '\(option.value)'; use a whole number from 1.")
        }
        quantity = value
      }
      var payment = Payment(
        productID: product, quantity: quantity, applicationUsername: option("username")?.value, offerID: option("offer")?.value)
      payment.billingPlanType = try billingPlan()
      return try offerSignature(for: payment)
    case "store-payment":
      let product = try product()
      var answer = StorePaymentAnswer.add
      if let option = option("answer") {
        guard let value = StorePaymentAnswer(rawValue: option.value) else {
          throw issue(option.column, "Invalid answer '\(option.value)'; use add, later or cancel.")
        }
        answer = value
      }
      return .storePayment(product, answer: answer)
    case "add-store-payment": return .addStorePayment(try product())
    // B50: the App Store's code redemption sheet (`presentCodeRedemptionSheet()`), the code typed in.
    case "redeem": return try redeem()
    case "offer-codes": return try offerCodes()
    case "confirm": return .command(.confirm)
    case "cancel": return .command(.cancel)
    case "finish":
      if positionals.first?.text == "all" {
        positionals.removeFirst()
        return .finishAll
      }
      return .transaction(try reference(), .finish)
    case "restore": return .command(.restore)
    case "approve": return .transaction(try reference(), .approve(after: try optionalDuration("after")))
    case "decline": return .transaction(try reference(), .decline(after: try optionalDuration("after")))
    case "resolve": return .transaction(try reference(), .resolve)
    case "refund":
      let reference = try reference()
      let reason = option("reason").flatMap { Int($0.value) } ?? 0
      return .transaction(reference, .refund(reason: reason))
    case "request-refund":
      let reference = try reference()
      var answer = RefundRequestAnswer.approve
      if let option = option("answer") {
        guard let value = RefundRequestAnswer(rawValue: option.value) else {
          throw issue(option.column, "Invalid answer '\(option.value)'; use approve, decline or cancel.")
        }
        answer = value
      }
      let reason = option("reason").flatMap { Int($0.value) } ?? 0
      return .transaction(reference, .requestRefund(answer: answer, reason: reason))
    case "set": return .set(try control())
    case "glitch": return .set(try glitch())
    case "billing-issue": return .set(.billingIssue(try onOff()))
    case "grace": return .set(.grace(try onOff()))
    case "time-rate": return .set(.timeRate(try timeRate()))
    case "fail": return try failure()
    case "advance": return .advance(try durationArgument())
    case "relaunch": return .command(.relaunch)
    case "delete-transaction": return .transaction(try reference(), .delete)
    case "reset": return .command(.resetToDefaultState)
    case "cancel-flow":
      let product = try product()
      var choice = RetentionChoice.dismiss
      if let option = option("choose") {
        guard let value = RetentionChoice(rawValue: option.value) else {
          throw issue(option.column, "Invalid choice '\(option.value)'; use dismiss, accept or cancel.")
        }
        choice = value
      }
      return .cancelFlow(product, choice: choice)
    case "rescind-consent":
      return .rescindConsent(account: positionals.isEmpty ? nil : try next("an account name").text)
    case "clear-history":
      return .command(.clearHistory(account: positionals.isEmpty ? nil : try next("an account name").text))
    case "auto-renew":
      let reference = try reference()
      return .transaction(reference, .autoRenew(try onOff()))
    case "expire": return .transaction(try reference(), .expire)
    case "renew": return .transaction(try reference(), .renew)
    case "resolve-billing": return .transaction(try reference(), .resolveBilling)
    case "price-increase":
      let reference = try reference()
      let token = try next("request, accept or decline")
      guard let step = StoreCommand.PriceIncreaseAction(rawValue: token.text) else {
        throw issue(token.column, "Expected request, accept or decline, found '\(token.text)'.")
      }
      guard step == .request, let option = option("price") else { return .transaction(reference, .priceIncrease(step)) }
      guard let price = Decimal(string: option.value, locale: Locale(identifier: "en_US_POSIX")), price > 0 else {
        throw issue(option.column, "Invalid price '\(option.value)'; write the new renewal price like 9.99.")
      }
      return .transaction(reference, .priceIncrease(step, price: price))
    case "expect": return .expect(try expectation())
    case "server-fault": return .serverFault(try serverFault())
    case "notifications": return try notifications()
    case "app": return try appFinishes()
    case _ where Self.storeKit2Verbs.contains(verb.text): return .storeKit2(try storeKit2Call())
    default:
      let hint = suggestion(for: verb.text, in: ScenarioParser.verbs).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(verb.column, "Unknown verb '\(verb.text)'.\(hint)")
    }
  }

  /// `server-fault clear`, `server-fault ENDPOINT off`, `server-fault ENDPOINT|all
  /// [answer=429|500|retryable] [delay=250ms|2s] [count=N]`, or `server-fault verifyReceipt
  /// answer=21100..21199 [count=N]`.
  private mutating func serverFault() throws(ScenarioIssue) -> ServerFault {
    let endpoint = try next("an App Store Server API endpoint such as getTransactionInfo, all, or clear")
    if endpoint.text == "clear" { return .clear }
    if positionals.first?.text == "off" {
      positionals.removeFirst()
      return .off(endpoint: endpoint.text)
    }
    if endpoint.text == "verifyReceipt" { return try receiptFault() }
    var answer: ServerFault.Answer?
    if let option = option("answer") {
      guard let value = ServerFault.Answer(rawValue: option.value) else {
        throw issue(option.column, "Invalid answer '\(option.value)'; use 429, 500 or retryable.")
      }
      answer = value
    }
    var delay: Duration?
    if let option = option("delay") {
      guard let value = Self.wallClockDuration(option.value) else {
        throw issue(option.column, "Invalid delay '\(option.value)'; write milliseconds or seconds of real time, such as 250ms or 2s (at most 60s).")
      }
      delay = value
    }
    var count: Int?
    if let option = option("count") {
      guard let value = Int(option.value), value >= 1 else {
        throw issue(option.column, "Invalid count '\(option.value)'; use a whole number from 1 (leave it out for every request).")
      }
      count = value
    }
    guard answer != nil || delay != nil else {
      throw issue(endColumn, "'server-fault \(endpoint.text)' needs answer=429|500|retryable, delay=…, or both; `server-fault \(endpoint.text) off` removes it.")
    }
    return .set(endpoint: endpoint.text, answer: answer, delay: delay, count: count)
  }

  /// `server-fault verifyReceipt answer=21100..21199 [count=N]`.
  private mutating func receiptFault() throws(ScenarioIssue) -> ServerFault {
    guard let option = option("answer") else {
      throw issue(endColumn, "'server-fault verifyReceipt' needs answer=21100..21199 (Apple's retryable statuses); `server-fault verifyReceipt off` removes it.")
    }
    guard let status = Int(option.value), (21100...21199).contains(status) else {
      throw issue(option.column, "Invalid verifyReceipt answer '\(option.value)'; use a status from 21100 to 21199.")
    }
    var count: Int?
    if let counted = self.option("count") {
      guard let value = Int(counted.value), value >= 1 else {
        throw issue(counted.column, "Invalid count '\(counted.value)'; use a whole number from 1 (leave it out for every request).")
      }
      count = value
    }
    return .verifyReceipt(status: status, count: count)
  }

  /// `250ms` or `2s`, up to a minute: how long serve waits before answering (real time).
  static func wallClockDuration(_ text: String) -> Duration? {
    let milliseconds: Int?
    if text.hasSuffix("ms") {
      milliseconds = Int(text.dropLast(2))
    } else if text.hasSuffix("s") {
      milliseconds = Int(text.dropLast()).map { $0 * 1000 }
    } else {
      milliseconds = nil
    }
    guard let milliseconds, (0...60_000).contains(milliseconds) else { return nil }
    return .milliseconds(milliseconds)
  }

  private mutating func control() throws(ScenarioIssue) -> ScenarioStep.Control {
    let name = try next("a setting (ask-to-buy, interrupted, can-make-payments, dialogs, billing-issue, grace, storefront, locale, latency, time-rate, age-rating)")
    switch name.text {
    case "ask-to-buy": return .askToBuy(try onOff())
    case "interrupted": return .interrupted(try onOff())
    case "can-make-payments": return .canMakePayments(try onOff())
    case "dialogs": return .dialogs(try onOff())
    case "billing-issue": return .billingIssue(try onOff())
    case "grace": return .grace(try onOff())
    case "storefront":
      let code = try next("a storefront code such as USA or KOR")
      guard code.text.count == 3, code.text.allSatisfy(\.isLetter) else {
        throw issue(code.column, "Invalid storefront '\(code.text)'; use an ISO 3166-1 alpha-3 code such as USA or KOR.")
      }
      // B63: only the App Store's storefronts exist; lower case is accepted (`usa` is USA).
      guard let storefront = Storefront.lookup(code.text) else {
        throw issue(code.column, "Unknown storefront '\(code.text)'; it is not an App Store storefront.\(StorefrontSuggestion.didYouMean(for: code.text)) Use an ISO 3166-1 alpha-3 code such as USA, KOR or JPN.")
      }
      return .storefront(storefront.code)
    case "locale": return .locale(try next("a locale such as en_US or ko_KR").text)
    case "latency": return .latency(try durationArgument())
    case "time-rate": return .timeRate(try timeRate())
    case "age-rating": return .ageRating(try ageRatingCode())
    default:
      let known = ["ask-to-buy", "interrupted", "can-make-payments", "dialogs", "billing-issue", "grace", "storefront", "locale", "latency", "time-rate", "age-rating"]
      let hint = suggestion(for: name.text, in: known).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(name.column, "Unknown setting '\(name.text)'.\(hint)")
    }
  }

  /// `glitch NAME on|off|next [N]|1-in N [seed S]`.
  private mutating func glitch() throws(ScenarioIssue) -> ScenarioStep.Control {
    let names = StoreGlitch.allCases.map(\.rawValue)
    let name = try next("a glitch (\(names.joined(separator: ", ")))")
    guard let glitch = StoreGlitch(rawValue: name.text) else {
      let hint = suggestion(for: name.text, in: names).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(name.column, "Unknown glitch '\(name.text)'.\(hint)")
    }
    let first = try next("on, off, next [N] or 1-in N [seed S]")
    var words = [first.text]
    while !positionals.isEmpty { words.append(try next("a count or seed").text) }
    guard let setting = GlitchSetting(parsing: words.joined(separator: " ")) else {
      throw issue(first.column, "Invalid glitch setting '\(words.joined(separator: " "))'; use on, off, next, next N or 1-in N seed S (N at least 1).")
    }
    return .glitch(glitch, setting)
  }

  private mutating func failure() throws(ScenarioIssue) -> ScenarioStep.Action {
    let apiToken = try next("an API (\(StoreAPI.allCases.map(\.rawValue).joined(separator: ", ")))")
    guard let api = StoreAPI(rawValue: apiToken.text) else {
      let hint = suggestion(for: apiToken.text, in: StoreAPI.allCases.map(\.rawValue)).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(apiToken.column, "Unknown API '\(apiToken.text)'.\(hint)")
    }
    if positionals.first?.text == "off" {
      positionals.removeFirst()
      return .set(.failure(api, nil))
    }
    var error: StoreKitError
    if api == .refundRequest, let name = positionals.first, let refundError = StoreKitError(refundRequestName: name.text) {
      // The refund sheet also throws `Transaction.RefundRequestError`.
      positionals.removeFirst()
      error = refundError
    } else {
      error = try storeKitError()
    }
    var chance = 1.0
    if let option = option("chance") {
      guard let value = Double(option.value), (0...1).contains(value) else {
        throw issue(option.column, "Invalid chance '\(option.value)'; use a number from 0 to 1.")
      }
      chance = value
    }
    return .set(.failure(api, SimulatedFailure(error: error, chance: chance)))
  }

  private mutating func expectation() throws(ScenarioIssue) -> ScenarioStep.Expectation {
    let subject = try next("what to check (state, error, owned, not-owned, quantity, unfinished, transactions, prompt, account, status, expires, signed, commitment, price, unverified, restored, last-event, misuse, retention-sheet, crash, offer-codes, redemptions, offer, bundle, previous, revocation, age-rating)")
    if let codes = try offerCodeExpectation(subject.text) { return codes }
    switch subject.text {
    case "state":
      let reference = try reference()
      let token = try next("a state (purchasing, purchased, failed, restored, deferred)")
      guard let state = TransactionState(name: token.text) else {
        throw issue(token.column, "Unknown state '\(token.text)'; use purchasing, purchased, failed, restored or deferred.")
      }
      return .state(reference, state)
    case "error":
      let reference = try reference()
      if positionals.first?.text == "none" {
        positionals.removeFirst()
        return .error(reference, nil)
      }
      return .error(reference, try storeKitError())
    case "owned", "not-owned":
      let product = try product(unknownWarning: "only purchases made before it left the catalog can grant it.")
      return .owned(product, subject.text == "owned")
    case "quantity":
      let product = try product()
      return .quantity(product, try integer("a count", range: 0...1_000_000))
    case "unfinished": return .unfinished(try integer("a count", range: 0...1_000_000))
    case "transactions": return .transactions(try integer("a count", range: 0...1_000_000))
    case "restored": return .restored(try integer("a count", range: 0...1_000_000))
    case "prompt":
      let token = try next("confirm, already-owned, sign-in or none")
      guard ["confirm", "already-owned", "sign-in", "none"].contains(token.text) else {
        throw issue(token.column, "Expected confirm, already-owned, sign-in or none, found '\(token.text)'.")
      }
      return .prompt(token.text)
    case "account":
      let token = try next("an account name or none")
      return .account(token.text == "none" ? nil : token.text)
    case "status":
      let product = try product()
      let token = try next("a status (subscribed, inBillingRetry, inGracePeriod, expired, revoked)")
      guard let status = SubscriptionStatus(rawValue: token.text) else {
        throw issue(token.column, "Unknown status '\(token.text)'; use subscribed, inBillingRetry, inGracePeriod, expired or revoked.")
      }
      return .status(product, status)
    case "expires":
      let reference = try reference()
      let token = try next("an ISO 8601 date such as 2026-02-01T00:00:00Z")
      guard let date = ISO8601DateFormatter().date(from: token.text) else {
        throw issue(token.column, "Invalid date '\(token.text)'; use ISO 8601 such as 2026-02-01T00:00:00Z.")
      }
      return .expires(reference, date)
    case "bundle", "previous", "revocation": return try bundleExpectation(subject)
    case "signed": return .signed(try reference())
    case "commitment": return try commitmentExpectation()
    case "price": return try priceExpectation()
    case "unverified": return .unverified(try reference())
    case "crash": return .crash
    case "notification": return .notification(try notificationMatch(optional: false))
    case "notifications": return .notifications(try integer("a count", range: 0...1_000_000))
    case "delivered": return try deliveredExpectation()
    case "last-event": return .lastEvent(try next("an event name").text)
    case "retention-sheet":
      let token = try next("plain, message, alternate or offer")
      guard ["plain", "message", "alternate", "offer"].contains(token.text) else {
        throw issue(token.column, "Expected plain, message, alternate or offer, found '\(token.text)'.")
      }
      return .retentionSheet(token.text, positionals.isEmpty ? nil : try next("a message, product or offer id").text)
    case "misuse": return .misuse(try next("an error name such as alreadyFinished").text)
    case "age-rating": return .ageRating(try ageRatingCode())
    case _ where Self.storeKit2Expectations.contains(subject.text): return try storeKit2Expectation(subject)
    default:
      let known = ["state", "error", "owned", "not-owned", "quantity", "unfinished", "transactions", "prompt", "account", "status", "expires", "signed", "commitment", "price", "unverified", "restored", "last-event", "misuse", "retention-sheet", "crash", "notification", "notifications", "delivered", "offer-codes", "redemptions", "offer", "bundle", "previous", "revocation", "age-rating"] + Self.storeKit2Expectations
      let hint = suggestion(for: subject.text, in: known).map { " Did you mean '\($0)'?" } ?? ""
      throw issue(subject.column, "Unknown expectation '\(subject.text)'.\(hint)")
    }
  }
}

extension LineParser {
  /// Apple's age rating code (`set age-rating`, `expect age-rating`), or nil for `none`.
  mutating func ageRatingCode() throws(ScenarioIssue) -> Int? {
    let code = try next("an age rating code such as 100 (4+), 300 (12+) or 618 (18+), or none")
    if code.text == "none" { return nil }
    guard let value = Int(code.text), value > 0 else {
      throw issue(code.column, "Invalid age rating code '\(code.text)'; use Apple's code such as 100 (4+), 200 (9+), 300 (12+), 600 (17+) or 618 (18+), or none.")
    }
    return value
  }
}
