import Foundation
import StoreEngine
import StorefrontLive

/// `storefront offer-codes generate|create|list`: App Store Connect's offer codes (DECISIONS §45),
/// kept in the ledger of the data directory, so every storefront, attached app and scenario on it
/// redeems them with their limits.
enum OfferCodesCommand {
  static let offerHelp =
    "An auto-renewable subscription's code offer (its id or reference name in the catalog's codeOffers), or, for a consumable, non-consumable or non-renewing subscription, the offer's name (any text)."

  static let generate = CommandDescriptor(
    path: ["offer-codes", "generate"],
    arguments: "<product-id> <offer> [--count N] [--expires DATE|DAYSd] [--price AMOUNT]",
    summary: "Generate one-time-use offer codes, as App Store Connect does.",
    discussion: """
      Makes --count (default 1, at most 10000) random one-time-use codes for the offer, in one \
      batch, and prints them. Each code redeems once. They expire at --expires: a date \
      (2026-03-01, 2026-03-01T09:30:00Z) or a number of days after the store's clock (30d); \
      at most six months ahead, as App Store Connect allows, which is also the default. \
      \(offerHelp) --price is what redeeming charges for such a product (default 0: free); a \
      subscription's code offer is priced by the catalog. The codes come from the store's seeded \
      generator (--seed), so a run on a fresh data directory repeats.
      """,
    options: [
      OptionSpec("--count", value: "n", help: "How many codes (1-10000, default 1)."),
      OptionSpec("--expires", value: "when", help: "A date, or days after the store's clock (30d); default and most: six months."),
      OptionSpec("--price", value: "amount", help: "What redeeming charges for a product that is not an auto-renewable subscription (default 0)."),
    ],
    run: runGenerate)

  static let create = CommandDescriptor(
    path: ["offer-codes", "create"],
    arguments: "<code> <product-id> <offer> [--limit N] [--expires DATE|DAYSd] [--price AMOUNT]",
    summary: "Create a custom offer code with a redemption limit.",
    discussion: """
      Makes the custom code <code> (1 to 64 letters and digits, such as SPRING25; customers type it \
      in any case) for the offer. Up to --limit customers (default 1) redeem it, each once; it \
      stops at --expires (a date, or days after the store's clock such as 30d; default: never). \
      \(offerHelp) --price is what redeeming charges for such a product (default 0: free).
      """,
    options: [
      OptionSpec("--limit", value: "n", help: "How many customers may redeem it (default 1)."),
      OptionSpec("--expires", value: "when", help: "A date, or days after the store's clock (30d); default: never."),
      OptionSpec("--price", value: "amount", help: "What redeeming charges for a product that is not an auto-renewable subscription (default 0)."),
    ],
    run: runCreate)

  static let list = CommandDescriptor(
    path: ["offer-codes", "list"],
    arguments: "[<product-id>] [--urls --app-id ID] [--json]",
    summary: "List the offer codes and their redemptions.",
    discussion: """
      Prints each code of the data directory's ledger (of <product-id> only, when given): kind, \
      product, offer, redemptions of the limit, expiry and price. --urls adds each code's \
      redemption URL (https://apps.apple.com/redeem?ctx=offercodes&id=APPID&code=CODE) for the \
      app of --app-id (its Apple ID; default 0); the storefront's Redeem Code sheet takes such a \
      URL as well as the code.
      """,
    options: [
      OptionSpec("--urls", help: "Print each code's redemption URL."),
      OptionSpec("--app-id", value: "id", help: "The app's Apple ID in the URLs (default 0)."),
      OptionSpec("--json", help: "Print one JSON object per code."),
    ],
    run: runList)

  static func runGenerate(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count == 2 else {
      throw invocation.usageError("Give the product id and the offer, such as `offer-codes generate com.example.coins launch`.", for: generate)
    }
    let count = try integer(invocation, "--count", default: 1, in: 1...10_000, for: generate)
    let offer = OfferCodeOffer(
      productID: Product.ID(invocation.operands[0]), offer: invocation.operands[1], price: try price(invocation, for: generate))
    let command = OfferCodeCommand.generate(offer, count: count, expires: try expiry(invocation, for: generate))
    let (before, after) = try perform(command, invocation)
    let made = after.filter { new in !before.contains { $0.code == new.code } }
    for code in made { invocation.io.line(code.code) }
    return .success
  }

  static func runCreate(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count == 3 else {
      throw invocation.usageError("Give the code, the product id and the offer, such as `offer-codes create SPRING25 com.example.coins spring`.", for: create)
    }
    let limit = try integer(invocation, "--limit", default: 1, in: 1...1_000_000, for: create)
    let offer = OfferCodeOffer(
      productID: Product.ID(invocation.operands[1]), offer: invocation.operands[2], price: try price(invocation, for: create))
    let command = OfferCodeCommand.create(invocation.operands[0], offer, limit: limit, expires: try expiry(invocation, for: create))
    let (_, after) = try perform(command, invocation)
    if let code = after.first(where: { $0.code == invocation.operands[0].uppercased() }) { invocation.io.line(describe(code)) }
    return .success
  }

  static func runList(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    guard invocation.operands.count <= 1 else {
      throw invocation.usageError("Unexpected argument '\(invocation.operands[1])': give at most one product id.", for: list)
    }
    let (codes, now) = try read(invocation)
    let shown = codes.filter { invocation.operands.isEmpty || $0.productID.rawValue == invocation.operands[0] }
    let appID = invocation.arguments.value("--app-id") ?? "0"
    if invocation.arguments.flag("--json") {
      for code in shown { invocation.io.line(json(code, now: now, url: invocation.arguments.flag("--urls") ? code.redemptionURL(appAppleID: appID) : nil)) }
      return .success
    }
    if shown.isEmpty { invocation.io.line("No offer codes; make some with `storefront offer-codes generate` or `create`.") }
    for code in shown {
      var line = describe(code, now: now)
      if invocation.arguments.flag("--urls") { line += "  " + code.redemptionURL(appAppleID: appID) }
      invocation.io.line(line)
    }
    return .success
  }

  /// `CODE  one-time  PRODUCT  OFFER  0/1 redeemed  expires …  price …`.
  static func describe(_ code: OfferCode, now: Date? = nil) -> String {
    let state = now.map { code.isExpired(at: $0) ? "  expired" : "" } ?? ""
    let expiry = code.expires.map { "expires \(ClockChoice.text($0))" } ?? "no expiry"
    let price = code.price.map { "  price \($0)" } ?? ""
    return "\(code.code)  \(code.kind.rawValue)  \(code.productID.rawValue)  \(code.offerID)  \(code.redemptions)/\(code.limit) redeemed  \(expiry)\(state)\(price)"
  }

  private static func json(_ code: OfferCode, now: Date, url: String?) -> String {
    var object: [String: Any] = [
      "code": code.code, "kind": code.kind.rawValue, "productID": code.productID.rawValue, "offer": code.offerID,
      "limit": code.limit, "redemptions": code.redemptions, "expired": code.isExpired(at: now),
    ]
    if let expires = code.expires { object["expires"] = ClockChoice.text(expires) }
    if let price = code.price { object["price"] = "\(price)" }
    if let batch = code.batch { object["batch"] = batch }
    if let url { object["url"] = url }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  private static func integer(
    _ invocation: Invocation, _ option: String, default value: Int, in range: ClosedRange<Int>, for descriptor: CommandDescriptor
  ) throws(CLIFailure) -> Int {
    guard let text = invocation.arguments.value(option) else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw invocation.usageError("Invalid \(option) '\(text)': use a whole number from \(range.lowerBound) to \(range.upperBound).", for: descriptor)
    }
    return number
  }

  private static func price(_ invocation: Invocation, for descriptor: CommandDescriptor) throws(CLIFailure) -> Decimal? {
    guard let text = invocation.arguments.value("--price") else { return nil }
    guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value >= 0 else {
      throw invocation.usageError("Invalid --price '\(text)': use an amount such as 0 or 0.99.", for: descriptor)
    }
    return value
  }

  private static func expiry(_ invocation: Invocation, for descriptor: CommandDescriptor) throws(CLIFailure) -> OfferCodeExpiry? {
    guard let text = invocation.arguments.value("--expires") else { return nil }
    if text.hasSuffix("d"), let days = Int(text.dropLast()), days >= 1, days <= 36_500 {
      return .after(DateComponents(day: days))
    }
    guard let start = ClockStart(parsing: text), case .date(let date) = start else {
      throw invocation.usageError("Invalid --expires '\(text)': use a date (2026-03-01, 2026-03-01T09:30:00Z) or days such as 30d.", for: descriptor)
    }
    return .at(date)
  }

  private static func open(_ invocation: Invocation) throws(CLIFailure) -> LiveStore {
    let catalog: Catalog
    switch CatalogSource.load(invocation.global.catalogPath) {
    case .success(let loaded): catalog = loaded.catalog
    case .failure(let error): throw CatalogSource.failure(error, io: invocation.io)
    }
    let clock = try ClockChoice.resolve(invocation.global, environment: invocation.environment, default: .scenarioEpoch)
    return try LiveStore.open(catalog: catalog, global: invocation.global, environment: invocation.environment, clock: clock)
  }

  private static func perform(_ command: OfferCodeCommand, _ invocation: Invocation) throws(CLIFailure) -> (before: [OfferCode], after: [OfferCode]) {
    let store = try open(invocation)
    do throws(EngineError) {
      try store.queue.refresh()
      let before = store.queue.offerCodes
      _ = try store.queue.perform(.offerCodes(command))
      let after = store.queue.offerCodes
      store.ledger.close()
      return (before, after)
    } catch {
      store.ledger.close()
      throw CLIFailure(error, otherwise: .dataError)
    }
  }

  private static func read(_ invocation: Invocation) throws(CLIFailure) -> (codes: [OfferCode], now: Date) {
    do throws(LedgerError) {
      let location = try LedgerLocation.resolve(invocation.global, environment: invocation.environment)
      guard location.exists else { return ([], Date()) }
      let ledger = try location.open(readOnly: true)
      defer { ledger.close() }
      let snapshot = try ledger.load()
      return (OfferCodeBook.codes(in: snapshot.deviceValues), snapshot.clock ?? Date())
    } catch {
      throw CLIFailure(error)
    }
  }
}
