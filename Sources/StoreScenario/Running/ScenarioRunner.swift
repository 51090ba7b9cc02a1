import Foundation
import SimulatedApp
import StoreEngine

/// How a scenario run ended.
public enum ScenarioOutcome: Sendable, Equatable {
  case passed(steps: Int)
  /// An `expect` line did not hold.
  case assertionFailed(line: Int, message: String)
  /// The engine could not go on (e.g. the ledger failed).
  case aborted(line: Int, message: String)
  /// A line did what crashes a real app (B27), and no `expect crash` followed it.
  case crashed(line: Int, crash: AppCrash)
}

/// Runs parsed scenario steps against a payment queue, writing each event as it happens. Every
/// line becomes ``StoreCommand``s that the queue performs; only references (`last`, a product) and
/// `expect` are the runner's own.
public final class ScenarioRunner {
  /// The store the steps run against.
  public let queue: PaymentQueue
  let formatter: EventFormatter
  private let write: (String) -> Void
  private let recorder = EventRecorder()
  private var subscription: Subscription?
  /// What `expect`s read (made when the run starts, from the ledger's present).
  var readModel: ScenarioReadModel?
  private var readModelSubscriptions: [Subscription] = []
  let verifier: SignatureVerifier?
  private let storePayments = StorePaymentAnswerer()
  /// App Store payments the app answered `later` and keeps, to add them itself.
  private var keptStorePayments: [Product.ID: Payment] = [:]
  /// Set by a crash that the next line expects; that `expect crash` clears it.
  var crashedValue: AppCrash?
  /// Which view's lines are written; the StoreKit 2 view is kept either way, for its `expect`s.
  let api: StoreKitAPI
  /// What `app-transaction` reports.
  let app: AppIdentity
  var storeKit2View = StoreKit2View()
  /// Each `purchase()` call's result, in order, by product (for `expect purchase-result`).
  var purchaseOutcomes: [(product: Product.ID, outcome: PurchaseOutcome)] = []
  /// Transactions `Transaction.updates` emitted so far.
  var updatesCount = 0
  /// Draws for `fail … chance=P` on the StoreKit 2 calls the engine does not see; seeded, so runs repeat.
  var generator = SplitMix64(seed: 0x5354_4F52_454B_4954)
  var lastEventNameValue: String?
  var lastRestoredCountValue: Int?
  var lastMisuseValue: String?
  /// The code the last `redeem` line typed (`redeem last-code`, `expect redemptions last-code`).
  var lastTypedCode: String?
  /// The ledger error that aborted the last run, so the caller can pick its exit code.
  public internal(set) var ledgerFailure: LedgerError?
  /// Signs `buy … offer=… signed` lines (the storefront's promotional-offer key); without one
  /// such a line stops the run.
  public var offerSigner: (any PromotionalOfferSigner)?
  /// Carries out `server-fault` lines (the data directory's fault plan, which `storefront serve`
  /// reads); returns what went wrong, or nil. Without one such a line stops the run.
  public var serverFaults: ((ServerFault) -> String?)?
  private var signedOffers: UInt64 = 0
  /// Reads the data directory's outbox for `expect delivered`; without one such a line stops the run.
  public var notificationOutbox: (any NotificationOutbox)?
  /// How `expect delivered` waits between two reads of the outbox (a test delivers instead).
  public var pause: (Duration) -> Void = { Thread.sleep(forTimeInterval: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
  /// The notifications the run queued, in order.
  var queuedNotifications: [ServerNotification] = []
  /// Where the next `expect notification` starts looking: just after the one the previous matched.
  var notificationCursor = 0
  /// The outbox's last entry before the run: `expect delivered` looks at the entries after it.
  var outboxStart: Int64 = 0
  /// When the simulated app finishes transactions (`--app-finishes`, `app finishes`); manually by default.
  public var appFinisher = AppFinisher()
  /// Makes the app's call to its own server and waits for the answer (bounded by its time-out);
  /// without one, `app finishes after-server` stops the run.
  public var appServer: ((AppServerRequest) -> AppServerAnswer)?
  /// The app receipt of an account, sent as `receipt` when it gives data.
  public var receipt: ((String) throws -> Data?)?

  /// - Parameters:
  ///   - verifier: checks JWS for `expect signed` and `expect unverified`; without one, `expect
  ///     signed` only checks that a JWS is there, and `expect unverified` fails.
  ///   - api: the view written: StoreKit 1's callbacks (default) or StoreKit 2's results and sequences.
  ///   - app: the app `app-transaction` describes.
  ///   - write: receives each output line (without newline), in order, as soon as it exists.
  public init(
    queue: PaymentQueue, json: Bool, verifier: SignatureVerifier? = nil, api: StoreKitAPI = .storeKit1,
    app: AppIdentity = AppIdentity(), write: @escaping (String) -> Void
  ) {
    self.queue = queue
    self.api = api
    self.app = app
    self.formatter = EventFormatter(json: json)
    self.verifier = verifier
    self.write = write
    let recorder = self.recorder
    subscription = queue.bus.subscribe(StoreEvent.self) { recorder.record($0) }
    queue.add(storePayments)
  }

  deinit {
    // The queue outlives a run (the TUI's, a test's); its App Store payments are no longer ours to answer.
    queue.remove(storePayments)
  }

  /// Launches the app (redelivering unfinished transactions), then runs every step in order.
  public func run(_ steps: [ScenarioStep]) -> ScenarioOutcome {
    if let notificationOutbox {
      do throws(LedgerError) {
        outboxStart = try notificationOutbox.allNotifications().last?.sequence ?? 0
      } catch {
        ledgerFailure = error
        return .aborted(line: 0, message: ScenarioErrorText.message(for: .ledger(error)))
      }
    }
    do throws(LedgerError) {
      let model = try ScenarioReadModel(ledger: queue.ledger)
      readModel = model
      readModelSubscriptions = [
        queue.bus.subscribe(LedgerCommit.self) { model.apply($0) }, queue.bus.subscribe(StoreEvent.self) { model.hear($0) },
      ]
    } catch {
      ledgerFailure = error
      return .aborted(line: 0, message: ScenarioErrorText.message(for: .ledger(error)))
    }
    do {
      try queue.launch()
    } catch {
      flush(line: nil)
      if case .ledger(let failure) = error { ledgerFailure = failure }
      return .aborted(line: 0, message: ScenarioErrorText.message(for: error))
    }
    do {
      try appReacts(to: flush(line: nil), line: nil)
    } catch {
      return .aborted(line: 0, message: message(for: error))
    }
    for (index, step) in steps.enumerated() {
      do {
        try perform(step)
        try appReacts(to: flush(line: step.line), line: step.line)
      } catch {
        flush(line: step.line)
        switch error {
        case .assertion(let message):
          return .assertionFailed(line: step.line, message: message)
        case .engine(let error):
          if case .ledger(let failure) = error {
            ledgerFailure = failure
            return .aborted(line: step.line, message: ScenarioErrorText.message(for: error))
          }
          if let crash = AppCrash(error) {
            write(formatter.lines(for: [.appCrashed(EventRecord.AppCrashed(crash))], at: queue.now, line: step.line))
            guard index + 1 < steps.count, case .expect(.crash) = steps[index + 1].action else {
              return .crashed(line: step.line, crash: crash)
            }
            // Expected: the app is started again, as a user would, and the scenario goes on.
            crashedValue = crash
            if let outcome = relaunchAfterCrash(line: step.line) { return outcome }
            continue
          }
          // A refused command is the app's mistake, reported as an `error` event; the run goes on.
          report(.misuse(error), line: step.line, at: queue.now)
        case .other(let message):
          return .aborted(line: step.line, message: message)
        }
      }
      flush(line: step.line)
    }
    return .passed(steps: steps.count)
  }

  enum StepError: Error {
    case assertion(String)
    case engine(EngineError)
    case other(String)
  }

  private func write(_ lines: [String]) {
    for text in lines { write(text) }
  }

  /// Writes the events of the step so far; returns them. An advance announces each moment it
  /// reaches; what follows happened then, not at its end.
  @discardableResult
  func flush(line: Int?) -> [StoreEvent] {
    let events = recorder.drain()
    var time: Date?
    for event in events {
      if case .clockAdvanced(let date) = event { time = date }
      report(event, line: line, at: time ?? queue.now)
    }
    return events
  }

  /// Relaunches the app after an expected crash; returns how the run ends if that fails.
  private func relaunchAfterCrash(line: Int) -> ScenarioOutcome? {
    do {
      try queue.perform(.relaunch)
    } catch {
      flush(line: line)
      if case .ledger(let failure) = error { ledgerFailure = failure }
      return .aborted(line: line, message: ScenarioErrorText.message(for: error))
    }
    do {
      try appReacts(to: flush(line: line), line: line)
    } catch {
      return .aborted(line: line, message: message(for: error))
    }
    return nil
  }

  private func report(_ event: StoreEvent, line: Int?, at time: Date) {
    if case .restoreFinished(let count) = event { lastRestoredCountValue = count }
    if case .misuse(let error) = event { lastMisuseValue = error.name }
    if case .notificationQueued(let notification) = event { queuedNotifications.append(notification) }
    // N6: the app hears the signed-in account's transactions only, in both views.
    guard let heard = event.heard(by: queue.currentAccount) else { return }
    let queue = self.queue
    let modern = storeKit2View.records(for: heard) { try? queue.transaction($0) }
    noteStoreKit2(modern)
    emit(api == .storeKit2 ? modern : EventRecord.records(for: heard), line: line, at: time)
  }

  /// Writes records as lines (the last one's name is what `expect last-event` sees).
  func emit(_ records: [EventRecord], line: Int?, at time: Date? = nil) {
    if let name = records.last?.name { lastEventNameValue = name }
    for text in formatter.lines(for: records, at: time ?? queue.now, line: line) { write(text) }
  }

  func resolve(_ reference: TransactionReference) throws(StepError) -> PaymentTransaction.ID {
    switch reference {
    case .id(let id):
      return id
    case .last:
      guard let id = queue.lastTransactionID else { throw .engine(.unknownTransaction("last")) }
      return id
    case .product(let product):
      // The product's newest transaction, read from the ledger by itself (not the whole history).
      let latest: PaymentTransaction?
      do { latest = try queue.latestTransaction(matching: TransactionMatch(product: product)) } catch { throw .engine(.ledger(error)) }
      guard let found = latest else {
        throw .engine(.unknownTransaction(product.rawValue))
      }
      return found.id
    }
  }

  /// `payment` with a discount signed now; a deterministic nonce per signed line keeps runs repeatable.
  private func signed(_ payment: Payment, valid: Bool) throws(StepError) -> Payment {
    guard let offerSigner else { throw .other("no promotional-offer key to sign the offer with") }
    signedOffers += 1
    let nonce = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", signedOffers)) ?? UUID()
    var signed = payment
    do {
      var discount = try offerSigner.discount(for: payment, bundleID: queue.bundleID, nonce: nonce, at: queue.now)
      if !valid { discount.signature = try offerSigner.signature(of: Data("not this offer".utf8)) }
      signed.discount = discount
    } catch {
      throw .other("could not sign the promotional offer: \(error)")
    }
    return signed
  }

  /// `payment` with what the developer's server signs as compact JWS: the promotional offer and/or
  /// introductory-offer eligibility, naming the customer by their app transaction id.
  private func requestSigned(_ payment: Payment, offerJWS: Bool, allowIntroductoryOffer allow: Bool?, valid: Bool) throws(StepError) -> Payment {
    guard let offerSigner else { throw .other("no in-app purchase key to sign the request with") }
    let bundleID = queue.bundleID
    let customer = queue.currentAccount.map { SignedPayloads.appTransactionID(account: $0, bundleID: bundleID) }
    var signed = payment
    do {
      if offerJWS, let offerID = payment.offerID {
        signedOffers += 1
        let request = try offerSigner.signedRequest(
          .promotionalOffer, bundleID: bundleID, productID: payment.productID, offerID: offerID, transactionID: customer,
          nonce: nonce(signedOffers), at: queue.now, valid: valid)
        var discount = PaymentDiscount(
          identifier: offerID, keyIdentifier: request.keyIdentifier, nonce: nonce(signedOffers), signature: request.signature,
          timestamp: SignedPayloads.milliseconds(request.issuedAt ?? queue.now))
        discount.signedMessage = request.signingInput
        discount.request = request
        signed.discount = discount
      }
      if let allow {
        signedOffers += 1
        signed.introductoryOfferEligibility = try offerSigner.signedRequest(
          .introductoryOfferEligibility, bundleID: bundleID, productID: payment.productID, allow: allow, transactionID: customer,
          nonce: nonce(signedOffers), at: queue.now, valid: valid)
      }
    } catch {
      throw .other("could not sign the request: \(error)")
    }
    return signed
  }

  /// The runner's n-th nonce: runs repeat.
  private func nonce(_ count: UInt64) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llx", count)) ?? UUID()
  }

  func perform(_ command: StoreCommand) throws(StepError) {
    storeKit2View.willPerform(command)
    do { try queue.perform(command) } catch { throw .engine(error) }
  }

  private func perform(_ step: ScenarioStep) throws(StepError) {
    switch step.action {
    case .command(let command):
      try perform(command)
    case .storePayment(let product, let answer):
      storePayments.addsPayments = answer == .add
      defer { storePayments.addsPayments = true }
      try perform(.storePayment(product))
      if answer == .later { keptStorePayments[product] = Payment(productID: product) }
    case .redeem(let typed):
      let code = try offerCode(typed)
      lastTypedCode = code
      try perform(.redeemOfferCode(code))
    case .addStorePayment(let product):
      // The parser saw the `answer=later` line that kept it.
      guard let payment = keptStorePayments.removeValue(forKey: product) else {
        throw .assertion("expected a kept App Store payment of \(product), but there is none")
      }
      try perform(.buy(payment))
    case .transaction(let reference, let verb):
      try perform(verb.command(for: try resolve(reference), now: queue.now))
    case .signedBuy(let payment, let valid):
      try perform(.buy(try signed(payment, valid: valid)))
    case .rescindConsent(let account):
      do { try queue.rescindConsent(account: account) } catch { throw .engine(error) }
    case .requestSignedBuy(let payment, let offerJWS, let allow, let valid):
      try perform(.buy(try requestSigned(payment, offerJWS: offerJWS, allowIntroductoryOffer: allow, valid: valid)))
    case .finishAll:
      for transaction in queue.unfinishedTransactions where transaction.isFinishable {
        try perform(.finish(transaction.id))
      }
    case .advance(let duration):
      try perform(.advance(to: duration.after(queue.now)))
    case .set(let control):
      try perform(.setControl(control.change))
    case .expect(let expectation):
      flush(line: step.line)
      if let failure = try check(expectation) { throw .assertion(failure) }
    case .storeKit2(let call):
      try perform(call, line: step.line)
    case .serverFault(let fault):
      guard let serverFaults else { throw .other("server-fault needs a data directory for `storefront serve`; run it with `storefront run`.") }
      if let problem = serverFaults(fault) { throw .other(problem) }
    case .notificationURL(let url, let environment):
      try perform(.setNotificationURL(environment: environment ?? app.environment, url: url))
    case .appFinishes(let mode):
      if mode.serverURL != nil, appServer == nil {
        throw .other("`app finishes after-server` needs the app's HTTP client; run the scenario with `storefront run`.")
      }
      appFinisher.mode = mode
    }
  }
}
