import Foundation

/// The simulated App Store as a value: every transaction the store is working with, the accounts,
/// the subscription chains, the sandbox controls, the virtual clock, the seeded generator, the
/// sheets and the timers.
///
/// One entry point, ``handle(_:)``, turns a ``StoreCommand`` into a ``StoreStep``: the typed ledger
/// changes to commit and the events to announce. The machine does no I/O and never reads the wall
/// clock; signing and session liveness come in through ``StoreEnvironment``. The shell
/// (``PaymentQueue``) commits a step's changes as one batch and keeps the new value only after the
/// commit succeeded, so a failed commit leaves the store exactly as it was.
///
/// The machine holds a working set, not the whole history: what a launch needs (unfinished
/// transactions, each non-consumable chain's first transaction, the first and current transaction of
/// every subscription that has not ended, the subscription records) plus what this process touched,
/// less the consumables it finished. History queries go to the ledger.
public struct StoreMachine: Sendable {
  public internal(set) var catalog: Catalog
  public internal(set) var environment: StoreEnvironment
  /// The sandbox switches, seeded from the catalog's settings and changed at run time.
  public internal(set) var controls: SandboxControls
  /// The virtual clock.
  public internal(set) var now: Date
  /// The signed-in sandbox account, if any.
  public internal(set) var currentAccount: String?
  /// The sheet currently shown, if any.
  public internal(set) var prompt: PurchasePrompt?
  /// The most recently created or changed transaction (`last` in scenarios).
  public internal(set) var lastTransactionID: PaymentTransaction.ID?

  var accounts: [String: SandboxAccount] = [:]
  var transactions: [PaymentTransaction.ID: PaymentTransaction] = [:]
  /// Insertion order of ``transactions`` (an update keeps its place).
  var order: [PaymentTransaction.ID] = []
  /// Per chain (original id), the newest purchased transaction with an expiry: the current period.
  var currentPeriod: [PaymentTransaction.ID: PaymentTransaction.ID] = [:]
  /// Purchases waiting for their sheet, behind the one showing.
  var waitingForPrompt: [PaymentTransaction.ID] = []
  var timers: [ScheduledAction.Entry] = []
  var nextTimerSequence = 0
  var ids: TransactionIDPool
  var nextRequestID = 1
  var pendingRequests: [Int: [String]] = [:]
  var rng: SplitMix64
  var subscriptionRecords: [PaymentTransaction.ID: SubscriptionRecord] = [:]
  /// Open Ask to Buy requests (pending or declined), by their first transaction's id.
  var askToBuyRequests: [PaymentTransaction.ID: AskToBuyRequest] = [:]
  var nextLineItemID: UInt64 = 0
  /// Where the app's server wants App Store Server Notifications, by environment (`Sandbox`,
  /// `Production`); the store sends them only for an environment with a URL, as App Store Connect does.
  public internal(set) var notificationURLs: [String: String] = [:]
  /// The ledger's device values (``DeviceValues``): the attached processes' mailbox.
  public internal(set) var deviceValues: [String: String] = [:]
  /// The step being built by the command in progress.
  var step = StoreStep()
  /// The offer code whose payment ``add(_:)`` is making (only within ``redeem(_:)``).
  var redeemingCode: OfferCode?

  /// A store on `catalog` with what `snapshot` holds.
  ///
  /// - Parameter reservedIDs: false for a machine that is alone with its ids (unit tests): it
  ///   counts up from ``StoreEnvironment/firstTransactionID`` instead of asking for reserved blocks.
  public init(catalog: Catalog, environment: StoreEnvironment, snapshot: LedgerSnapshot = LedgerSnapshot(), reservedIDs: Bool = true) {
    self.catalog = catalog
    self.environment = environment
    self.controls = SandboxControls(settings: catalog.settings)
    self.now = environment.start
    self.rng = SplitMix64(seed: environment.seed)
    self.ids = TransactionIDPool(next: environment.firstTransactionID, reserved: reservedIDs)
    load(snapshot)
  }

  /// Replaces everything durable with `snapshot` (a relaunch): sheets, timers and requests of the
  /// old process are gone (Ask to Buy requests and their scheduled answers are durable); controls, the generator and the clock (never backwards) carry on.
  mutating func load(_ snapshot: LedgerSnapshot) {
    accounts = Dictionary(snapshot.accounts.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    transactions = [:]
    order = []
    currentPeriod = [:]
    absorb(snapshot.transactions)
    subscriptionRecords = [:]
    for record in snapshot.subscriptions {
      subscriptionRecords[record.originalID] = record
      noteLineItem(record.webOrderLineItemID)
    }
    askToBuyRequests = [:]
    absorb(snapshot.askToBuyRequests)
    currentAccount = snapshot.currentAccount
    notificationURLs = snapshot.notificationURLs
    deviceValues = snapshot.deviceValues
    if let clock = snapshot.clock { now = max(now, clock) }
    ids.dropReservation()
    prompt = nil
    waitingForPrompt = []
    timers = []
    pendingRequests = [:]
  }

  /// Replaces what is durable with the ledger's present (``PaymentQueue``'s start-over after the
  /// commit log was trimmed behind it), keeping the sheet, the timers and the requests in flight:
  /// unlike ``load(_:)``, this process did not restart.
  mutating func takePresent(_ snapshot: LedgerSnapshot) {
    let (prompt, waiting, timers, requests) = (self.prompt, waitingForPrompt, self.timers, pendingRequests)
    let reservation = ids
    load(snapshot)
    ids = reservation
    for transaction in snapshot.transactions { ids.skip(past: transaction.id.rawValue) }
    self.prompt = prompt
    waitingForPrompt = waiting.filter { transactions[$0] != nil }
    self.timers = timers
    pendingRequests = requests
  }

  /// Takes the ledger's versions of `list` into the working set (another process may have made or
  /// changed them; this process's own changes are always in the ledger before they are here).
  public mutating func absorb(_ list: [PaymentTransaction]) {
    for transaction in list {
      remember(transaction)
      ids.skip(past: transaction.id.rawValue)
      if let item = transaction.webOrderLineItemID { noteLineItem(item) }
    }
  }

  /// Takes the ledger's versions of subscription records in (another process changed them).
  public mutating func absorb(_ records: [SubscriptionRecord]) {
    for record in records {
      subscriptionRecords[record.originalID] = record
      noteLineItem(record.webOrderLineItemID)
    }
  }

  /// Moves the clock forward to the ledger's (another process advanced it and did what fell due on
  /// the way, which `absorb` brings in); never backwards.
  public mutating func catchUp(to clock: Date) {
    if clock > now { now = clock }
  }

  /// A subscription chain's record, by its original transaction id.
  public func subscriptionRecord(_ original: PaymentTransaction.ID) -> SubscriptionRecord? { subscriptionRecords[original] }

  /// Gives the machine more reserved ids (the shell got them from the ledger).
  mutating func addReservedIDs(_ range: Range<UInt64>) { ids.add(range) }

  /// This machine as a quick stand-in for counting the ids a step will draw: it does not sign
  /// (the slow part) and counts ids up from the reserved floor instead of running out.
  var probe: StoreMachine {
    var copy = self
    copy.environment.signer = nil
    copy.ids = TransactionIDPool(next: ids.floor, reserved: false)
    return copy
  }

  /// Runs `command` and returns what it did. On a thrown error nothing of the command happened:
  /// a caller that keeps the machine only on success (as ``PaymentQueue`` does) loses nothing.
  public mutating func handle(_ command: StoreCommand) throws(EngineError) -> StoreStep {
    step = StoreStep()
    ids.startStep()
    defer { step = StoreStep() }
    try run(command)
    finishNotifications()
    return step
  }

  private mutating func run(_ command: StoreCommand) throws(EngineError) {
    switch command {
    case .signIn(let name, let password): try signIn(name, password: password)
    case .signOut: signOut()
    case .adoptAccount(let name): try adoptAccount(name)
    case .setFamily(let members): setFamily(members)
    case .requestProducts(let identifiers): requestProducts(identifiers)
    case .buy(let payment): step.createdTransaction = try add(payment)
    case .buyInThePast(let payment, let date, let cancel): step.createdTransaction = try buy(payment, at: date, cancelImmediately: cancel)
    case .storePayment(let product):
      // Reaches the machine only when every observer said yes (the shell asks them).
      step.emit(.shouldAddStorePayment(product))
      step.createdTransaction = try add(Payment(productID: product))
    case .redeemOfferCode(let code): step.createdTransaction = try redeem(code)
    case .offerCodes(let command): try makeOfferCodes(command)
    case .confirm: try confirm()
    case .cancel: try cancel()
    case .finish(let id): try finish(id)
    case .discontinueAfterStorefrontChange(let id): try discontinueAfterStorefrontChange(id)
    case .finishAll(let ids): for id in ids { try finish(id) }
    case .restore: try restoreCompletedTransactions()
    case .restoreFor(let username): try restoreCompletedTransactions(applicationUsername: username)
    case .approve(let id, let delay): try answerAskToBuy(id, approve: true, after: delay)
    case .decline(let id, let delay): try answerAskToBuy(id, approve: false, after: delay)
    case .resolve(let id): step.createdTransaction = try resolve(id)
    case .refund(let id, let reason): try refund(id, reason: reason)
    case .requestRefund(let id, let answer, let reason): try requestRefund(id, answer: answer, reason: reason)
    case .setControl(var change):
      if case .storefront(let code) = change { change = .storefront(try Self.storefrontCode(code)) }
      let storefront = controls.storefront
      change.apply(to: &controls)
      step.emit(.controlsChanged(controls))
      // B62: `paymentQueueDidChangeStorefront(_:)` / `Storefront.updates`.
      if controls.storefront != storefront { step.emit(.storefrontChanged(controls.storefront)) }
    case .advance(let target): try advance(to: target)
    case .relaunch: try launch(claims: nil)
    case .absorb(let changes): absorb(commit: changes)
    case .read(.present(let snapshot)): takePresent(snapshot)
    case .read(.relaunch(let snapshot)): load(snapshot)
    case .read(.rows(let list)): absorb(list)
    case .read(.reservedIDs(let range)): addReservedIDs(range)
    case .device(let commands): for command in commands { say(command) }
    case .rescindConsent(let account, let firstPurchase): try rescindConsent(account: account, firstPurchase: firstPurchase)
    case .sellCatalog(let new):
      let changes = Self.settingChanges(from: catalog, to: new)
      catalog = new
      step.emit(.catalogChanged(new))
      for change in changes { try run(.setControl(change)) }
    case .clearHistory(let account): try clearPurchaseHistory(account: account)
    case .setAutoRenew(let id, let on): try setAutoRenew(on, for: id)
    case .expireSubscription(let id): try expireSubscription(id)
    case .renewSubscription(let id): try forceRenewal(id)
    case .resolveBillingIssue(let id): try resolveBillingIssue(id)
    case .priceIncrease(let id, .request, let price): try requestPriceIncrease(id, to: price)
    case .priceIncrease(let id, .accept, _): try answerPriceIncrease(id, consent: true)
    case .priceIncrease(let id, .decline, _): try answerPriceIncrease(id, consent: false)
    case .deleteTransaction(let id): try deleteTransaction(id)
    case .resetToDefaultState: try resetToDefaultState()
    case .extendRenewalDate(let id, let days, let requestID): try extendRenewalDate(id, days: days, requestID: requestID)
    case .sendConsumptionInformation(let id, let information): try storeConsumption(information, for: id)
    case .setAppAccountToken(let id, let token): try setAppAccountToken(id, token: token)
    case .extendRenewalDates(let request): try extendRenewalDates(request)
    case .setNotificationURL(let environment, let url):
      notificationURLs[environment] = url
      step.changes.append(.setNotificationURL(environment: environment, url: url))
    case .requestTestNotification(let token):
      notify(.test)
      if !step.notifications.isEmpty { step.notifications[step.notifications.count - 1].testNotificationToken = token }
    }
  }

  // MARK: Building the step

  /// Records `transaction` as changed in this step (signing it when it just became purchased or
  /// restored) and returns it as stored.
  @discardableResult
  mutating func put(_ changed: PaymentTransaction) throws(EngineError) -> PaymentTransaction {
    var transaction = changed
    if changed.state != .purchasing { expectOwnership(before: changed.id) }
    // Only a sheet still to be answered belongs to a session (checked first: no copy otherwise).
    if transaction.ownerSession != nil, transaction.state != .purchasing { transaction.ownerSession = nil }
    // Signed once when it becomes purchased or restored; a refund clears the JWS to re-sign it.
    if transaction.signedTransaction == nil, transaction.state == .purchased || transaction.state == .restored {
      transaction.signedTransaction = try signTransaction(transaction)
      // The chain's renewal info as it is now (B40: signed whenever the record changes).
      transaction.signedRenewalInfo = renewalInfoJWS(for: transaction)
      if let failure = controls.failures[.verification], roll(failure.chance) {
        // StoreKit 2's `.unverified`: the JWS is there but its signature does not check out.
        transaction.signedTransaction = transaction.signedTransaction.map(Self.breakingSignature)
      }
    }
    step.changes.append(.putTransaction(transaction))
    remember(transaction)
    lastTransactionID = transaction.id
    return transaction
  }

  /// Records a subscription record as changed in this step, with its renewal info signed afresh
  /// (B40), and returns it as stored. `current`: the chain's new period, not yet stored.
  @discardableResult
  mutating func put(_ changed: SubscriptionRecord, current: PaymentTransaction? = nil) throws(EngineError) -> SubscriptionRecord {
    var record = changed
    record.signedRenewalInfo = try signRenewalInfo(for: record, current: current)
    subscriptionRecords[record.originalID] = record
    step.changes.append(.putSubscription(record))
    return record
  }

  /// Keeps `transaction` in the working set and its indexes.
  mutating func remember(_ transaction: PaymentTransaction) {
    if transactions.updateValue(transaction, forKey: transaction.id) == nil { order.append(transaction.id) }
    if transaction.state == .purchased, transaction.expiresDate != nil {
      if let current = currentPeriod[transaction.originalID], let stored = transactions[current],
        stored.purchaseDate > transaction.purchaseDate || (stored.purchaseDate == transaction.purchaseDate && current > transaction.id)
      {
        return
      }
      currentPeriod[transaction.originalID] = transaction.id
    } else if currentPeriod[transaction.originalID] == transaction.id {
      currentPeriod[transaction.originalID] = nil
    }
  }

  /// Drops a transaction from the working set (it stays in the ledger).
  mutating func forget(_ id: PaymentTransaction.ID) {
    guard transactions.removeValue(forKey: id) != nil else { return }
    if order.last == id { order.removeLast() } else if let index = order.lastIndex(of: id) { order.remove(at: index) }
  }

  /// The JWS with its signature replaced by zeros: still well formed, never verifiable.
  static func breakingSignature(_ jws: String) -> String {
    var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3 else { return jws }
    parts[2] = Data(repeating: 0, count: 64).base64URLEncoded
    return parts.joined(separator: ".")
  }

  /// The next transaction id: from the blocks the shell reserved in the ledger, so that several
  /// processes on one data directory never collide.
  mutating func makeTransactionID() throws(EngineError) -> PaymentTransaction.ID {
    guard let id = ids.take() else { throw .transactionIDsExhausted(drawn: ids.drawnInStep) }
    return PaymentTransaction.ID(id)
  }

  /// Where `webOrderLineItemId`s count up from: 16 digits like Apple's (`2000000076096676`), 70
  /// million above the first live transaction id, so the two never meet in practice.
  static let lineItemBase: UInt64 = 2_000_000_070_000_000

  /// A new line-item id: every purchase and every renewal has its own.
  mutating func makeLineItemID() -> UInt64 {
    nextLineItemID += 1
    return Self.lineItemBase + nextLineItemID
  }

  private mutating func noteLineItem(_ item: UInt64) {
    // Ids of older ledgers (1_000_000_000 + n) sit below the range and cannot collide with it.
    if item > Self.lineItemBase { nextLineItemID = max(nextLineItemID, item - Self.lineItemBase) }
  }

  /// Draws from the seeded generator: true with probability `chance`.
  mutating func roll(_ chance: Double) -> Bool {
    if chance >= 1 { return true }
    if chance <= 0 { return false }
    return Double(rng.next() >> 11) / Double(1 << 53) < chance
  }
}

extension StoreMachine: Equatable {
  /// Two machines are equal when every stored field of their state is: all but the environment
  /// (closures, the signer) and the step in progress (empty between commands).
  public static func == (lhs: StoreMachine, rhs: StoreMachine) -> Bool {
    lhs.catalog == rhs.catalog && lhs.controls == rhs.controls && lhs.now == rhs.now
      && lhs.currentAccount == rhs.currentAccount && lhs.prompt == rhs.prompt
      && lhs.lastTransactionID == rhs.lastTransactionID && lhs.accounts == rhs.accounts
      && lhs.transactions == rhs.transactions && lhs.order == rhs.order
      && lhs.waitingForPrompt == rhs.waitingForPrompt && lhs.timers == rhs.timers
      && lhs.nextTimerSequence == rhs.nextTimerSequence && lhs.ids == rhs.ids
      && lhs.nextRequestID == rhs.nextRequestID && lhs.pendingRequests == rhs.pendingRequests
      && lhs.rng == rhs.rng && lhs.subscriptionRecords == rhs.subscriptionRecords
      && lhs.nextLineItemID == rhs.nextLineItemID && lhs.askToBuyRequests == rhs.askToBuyRequests
      && lhs.currentPeriod == rhs.currentPeriod && lhs.notificationURLs == rhs.notificationURLs
      && lhs.deviceValues == rhs.deviceValues
  }
}
