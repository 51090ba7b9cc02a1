import Foundation

extension StoreMachine {
  /// The longest a one-time-use code may stay redeemable: App Store Connect lets it expire at most
  /// six months after it is made.
  static let oneTimeCodeLifetimeMonths = 6
  /// The most codes one `generate` makes (App Store Connect's quarterly limit is 1,000,000 per app).
  static let largestCodeBatch = 10_000
  /// One-time codes: 16 characters of capitals and digits, without 0/O and 1/I.
  static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")

  /// Every offer code the store knows.
  public var offerCodes: [OfferCode] { OfferCodeBook.codes(in: deviceValues) }

  /// B50, B87–B89: an offer code typed into the App Store's redemption sheet (or a redemption URL
  /// opened). A generated or created code (``OfferCode``) redeems its offer once per customer,
  /// within its limit and before it expires; a refused code throws and charges nothing. A code that
  /// is not one names a subscription's catalog code offer by id or reference name, case-insensitively
  /// (Xcode's way of testing codes, with no limits).
  mutating func redeem(_ text: String) throws(EngineError) -> PaymentTransaction.ID {
    let typed = OfferCode.typed(text)
    if let code = OfferCodeBook.code(typed, in: deviceValues) {
      if let refusal = refusal(of: code, account: currentAccount) { throw .offerCodeRefused(code.code, because: refusal) }
      guard let product = catalog.product(code.productID) else { throw .unknownOfferCode(typed) }
      redeemingCode = code
      defer { redeemingCode = nil }
      let offerID = product.kind == .autoRenewableSubscription ? code.offerID : nil
      return try add(Payment(productID: code.productID, offerID: offerID))
    }
    let lowered = typed.lowercased()
    for product in catalog.products {
      guard let offer = product.subscription?.codeOffers.first(where: {
        $0.id.lowercased() == lowered || (!$0.referenceName.isEmpty && $0.referenceName.lowercased() == lowered)
      }) else { continue }
      return try add(Payment(productID: product.id, offerID: offer.id))
    }
    throw .unknownOfferCode(typed)
  }

  /// Why `code` cannot be redeemed now by `account` (nil: not signed in yet, checked again when the
  /// purchase completes), if it cannot.
  func refusal(of code: OfferCode, account: String?) -> OfferCodeRefusal? {
    if code.isExpired(at: now), let expires = code.expires { return .expired(expires) }
    if code.isUsedUp { return code.kind == .oneTime ? .alreadyRedeemed : .limitReached(code.limit) }
    if let account, !account.isEmpty,
      let used = deviceValues[OfferCodeBook.useKey(product: code.productID, offer: code.offerID, account: account)]
    {
      return .redeemedByCustomer(account: account, code: used)
    }
    return nil
  }

  /// Within ``add(_:)``: marks the new purchase as the redemption of ``redeemingCode`` (kept until
  /// the purchase completes or fails, in the ledger: a sheet may be answered after a relaunch or by
  /// another process).
  mutating func noteRedemption(_ transaction: inout PaymentTransaction) {
    guard let code = redeemingCode else { return }
    transaction.offerID = code.offerID
    if transaction.productKind != .autoRenewableSubscription {
      transaction.offerType = .code
      transaction.offerPaymentMode = .oneTime
    }
    setDeviceValue(OfferCodeBook.pendingKey(transaction.id), code.code)
  }

  /// The code a purchase in progress redeems, if any.
  func pendingCode(of id: PaymentTransaction.ID) -> OfferCode? {
    deviceValues[OfferCodeBook.pendingKey(id)].flatMap { OfferCodeBook.code($0, in: deviceValues) }
  }

  /// The price a code charges for the purchase in progress `transaction` of a product that is not an
  /// auto-renewable subscription, if it redeems one.
  func codePrice(of transaction: PaymentTransaction) -> Decimal? {
    guard transaction.productKind != .autoRenewableSubscription, let code = pendingCode(of: transaction.id) else { return nil }
    return Money.rounded(code.price ?? 0, currencyCode: Self.currency(of: transaction.storefront))
  }

  /// When a code's purchase completes: checks the code again (another customer or process may have
  /// used it meanwhile, or the customer signed in only now) and counts the redemption, in the same
  /// step as the purchase. Returns the refusal, if the code cannot be redeemed after all.
  mutating func consumeCode(of transaction: inout PaymentTransaction) -> OfferCodeRefusal? {
    let key = OfferCodeBook.pendingKey(transaction.id)
    guard deviceValues[key] != nil else { return nil }
    let pending = pendingCode(of: transaction.id)
    setDeviceValue(key, nil)
    guard var code = pending else { return nil }
    // A non-consumable the customer owns already is re-downloaded for free, as a repeated purchase
    // is (B23): the code is not used (it stays redeemable) and the purchase is not the offer's.
    if transaction.productKind == .nonConsumable, ownership(of: code.productID, account: transaction.account) != nil {
      transaction.offerID = nil
      transaction.offerType = nil
      transaction.offerPaymentMode = nil
      return nil
    }
    if let refusal = refusal(of: code, account: transaction.account) { return refusal }
    let codeKey = OfferCodeBook.codeKey(code.code)
    let useKey = OfferCodeBook.useKey(product: code.productID, offer: code.offerID, account: transaction.account)
    // Compare-and-set: the step commits only if the code and the customer's use of its offer are
    // still as this process read them; otherwise the queue reads them again and runs the step
    // again, which refuses the code (another process used it meanwhile).
    step.changes.append(.expectDeviceValue(key: codeKey, value: deviceValues[codeKey]))
    step.changes.append(.expectDeviceValue(key: useKey, value: nil))
    code.redemptions += 1
    setDeviceValue(codeKey, OfferCodeBook.encode(code))
    setDeviceValue(useKey, code.code)
    if transaction.productKind != .autoRenewableSubscription {
      transaction.offerType = .code
      transaction.offerID = code.offerID
      transaction.offerPaymentMode = .oneTime
      transaction.price = Money.rounded(code.price ?? 0, currencyCode: transaction.currency)
    }
    return nil
  }

  /// A purchase that redeemed a code failed or was cancelled: the code stays unredeemed.
  mutating func dropPendingCode(of id: PaymentTransaction.ID) {
    let key = OfferCodeBook.pendingKey(id)
    if deviceValues[key] != nil { setDeviceValue(key, nil) }
  }

  /// B87: App Store Connect's offer-code pages: one-time-use codes in batches, custom codes.
  mutating func makeOfferCodes(_ command: OfferCodeCommand) throws(EngineError) {
    switch command {
    case .generate(let request, let count, let expires):
      let offerID = try resolve(request)
      guard (1...Self.largestCodeBatch).contains(count) else {
        throw .cannotMakeOfferCodes("a batch holds 1 to \(Self.largestCodeBatch) one-time codes, not \(count)")
      }
      let latest = Self.latestOneTimeExpiry(after: now)
      let expiry = expires?.date(from: now) ?? latest
      guard expiry > now else { throw .cannotMakeOfferCodes("the expiry date is not after the store's clock (\(iso(now)))") }
      guard expiry <= latest else {
        throw .cannotMakeOfferCodes("one-time codes expire at most six months after they are made (by \(iso(latest)))")
      }
      let existing = offerCodes
      let batch = (existing.filter { $0.productID == request.productID && $0.offerID == offerID }.compactMap(\.batch).max() ?? 0) + 1
      var taken = Set(existing.map(\.code))
      for _ in 0..<count {
        var text = randomCode()
        while taken.contains(text) { text = randomCode() }
        taken.insert(text)
        let code = OfferCode(
          code: text, kind: .oneTime, productID: request.productID, offerID: offerID, price: price(of: request), limit: 1,
          expires: expiry, created: now, batch: batch)
        setDeviceValue(OfferCodeBook.codeKey(text), OfferCodeBook.encode(code))
      }
    case .create(let text, let request, let limit, let expires):
      let offerID = try resolve(request)
      let name = text.uppercased()
      guard (1...64).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
        throw .cannotMakeOfferCodes("a custom code is 1 to 64 letters and digits (such as SPRING25), not '\(text)'")
      }
      guard OfferCodeBook.code(name, in: deviceValues) == nil else {
        throw .cannotMakeOfferCodes("the code \(name) exists already; choose another name")
      }
      guard limit >= 1 else { throw .cannotMakeOfferCodes("a custom code's redemption limit is at least 1, not \(limit)") }
      let expires = expires?.date(from: now)
      if let expires, expires <= now {
        throw .cannotMakeOfferCodes("the expiry date is not after the store's clock (\(iso(now)))")
      }
      let code = OfferCode(
        code: name, kind: .custom, productID: request.productID, offerID: offerID, price: price(of: request), limit: limit,
        expires: expires, created: now)
      setDeviceValue(OfferCodeBook.codeKey(name), OfferCodeBook.encode(code))
    }
  }

  /// The offer id a request names, checked against the catalog.
  private func resolve(_ request: OfferCodeOffer) throws(EngineError) -> String {
    guard let product = catalog.product(request.productID) else {
      throw .cannotMakeOfferCodes("the catalog has no product '\(request.productID.rawValue)'")
    }
    guard let info = product.subscription, product.kind == .autoRenewableSubscription else {
      let name = request.offer.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { throw .cannotMakeOfferCodes("name the offer of '\(product.id.rawValue)' (--offer NAME)") }
      if let price = request.price, price < 0 { throw .cannotMakeOfferCodes("an offer's price is zero or more, not \(price)") }
      return name
    }
    if request.price != nil {
      throw .cannotMakeOfferCodes("a subscription's code offer is priced by the catalog ('\(product.id.rawValue)'); drop --price")
    }
    let typed = request.offer.lowercased()
    guard let offer = info.codeOffers.first(where: {
      $0.id.lowercased() == typed || (!$0.referenceName.isEmpty && $0.referenceName.lowercased() == typed)
    }) else {
      let names = info.codeOffers.map { $0.referenceName.isEmpty ? $0.id : $0.referenceName }
      throw .cannotMakeOfferCodes(
        "'\(product.id.rawValue)' has no code offer '\(request.offer)'"
          + (names.isEmpty ? "; add one to the catalog's codeOffers" : " (its code offers: \(names.joined(separator: ", ")))"))
    }
    return offer.id
  }

  private func price(of request: OfferCodeOffer) -> Decimal? {
    catalog.product(request.productID)?.kind == .autoRenewableSubscription ? nil : (request.price ?? 0)
  }

  private mutating func randomCode() -> String {
    String((0..<16).map { _ in Self.codeAlphabet[Int(rng.next() % UInt64(Self.codeAlphabet.count))] })
  }

  /// Six calendar months after `date` (UTC).
  static func latestOneTimeExpiry(after date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar.date(byAdding: .month, value: oneTimeCodeLifetimeMonths, to: date) ?? date.addingTimeInterval(183 * 86_400)
  }

  private func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

  /// Sets one device value in the machine and in the step's changes.
  mutating func setDeviceValue(_ key: String, _ value: String?) {
    deviceValues[key] = value
    step.changes.append(.setDeviceValue(key: key, value: value))
  }
}
