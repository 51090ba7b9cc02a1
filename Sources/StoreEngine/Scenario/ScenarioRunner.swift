import Foundation

/// How a scenario run ended.
public enum ScenarioOutcome: Sendable, Equatable {
  case passed(steps: Int)
  /// An `expect` line did not hold.
  case assertionFailed(line: Int, message: String)
  /// The engine could not go on (e.g. the ledger failed).
  case aborted(line: Int, message: String)
}

/// Collects bus events synchronously while a step runs.
final class EventRecorder: Sendable {
  private let events = Locked<[StoreEvent]>([])
  func record(_ event: StoreEvent) { events.withLock { $0.append(event) } }
  func drain() -> [StoreEvent] { events.withLock { list in defer { list = [] }; return list } }
}

/// Runs parsed scenario steps against a payment queue, writing each event as it happens.
public final class ScenarioRunner {
  public let queue: PaymentQueue
  private let formatter: EventFormatter
  private let write: (String) -> Void
  private let recorder = EventRecorder()
  private var subscription: Subscription?
  var lastEventNameValue: String?
  var lastRestoredCountValue: Int?
  var lastMisuseValue: String?
  /// The ledger error that aborted the last run, so the caller can pick its exit code.
  public private(set) var ledgerFailure: LedgerError?

  /// - Parameter write: receives each output line (without newline), in order, as soon as it exists.
  public init(queue: PaymentQueue, json: Bool, write: @escaping (String) -> Void) {
    self.queue = queue
    self.formatter = EventFormatter(json: json)
    self.write = write
    let recorder = self.recorder
    subscription = queue.bus.subscribe(StoreEvent.self) { recorder.record($0) }
  }

  /// Launches the app (redelivering unfinished transactions), then runs every step in order.
  public func run(_ steps: [ScenarioStep]) -> ScenarioOutcome {
    queue.launch()
    flush(line: nil)
    for step in steps {
      do {
        try perform(step)
      } catch {
        flush(line: step.line)
        switch error {
        case .assertion(let message):
          return .assertionFailed(line: step.line, message: message)
        case .engine(let error):
          if case .ledger(let failure) = error {
            ledgerFailure = failure
            return .aborted(line: step.line, message: error.description)
          }
          lastMisuseValue = error.name
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

  private func flush(line: Int?) {
    for event in recorder.drain() {
      track(event)
      for text in formatter.lines(for: event, at: queue.now, line: line) { write(text) }
    }
  }

  private func track(_ event: StoreEvent) {
    if case .restoreFinished(let count) = event { lastRestoredCountValue = count }
    if case .misuse(let error) = event { lastMisuseValue = error.name }
    if let name = formatter.fields(for: event).last?.0 { lastEventNameValue = name }
  }

  func resolve(_ reference: TransactionReference) throws(StepError) -> PaymentTransaction.ID {
    switch reference {
    case .id(let id):
      return id
    case .last:
      guard let id = queue.lastTransactionID else { throw .engine(queue.misuse(.unknownTransaction("last"))) }
      return id
    case .product(let product):
      guard let found = queue.history().last(where: { $0.productID == product }) else {
        throw .engine(queue.misuse(.unknownTransaction(product.rawValue)))
      }
      return found.id
    }
  }

  private func engine(_ body: () throws -> Void) throws(StepError) {
    do {
      try body()
    } catch let error as EngineError {
      throw .engine(error)
    } catch {
      throw .other(String(describing: error))
    }
  }

  private func perform(_ step: ScenarioStep) throws(StepError) {
    switch step.action {
    case .account(let name, let password): try engine { try queue.signIn(name, password: password) }
    case .signOut: try engine { try queue.signOut() }
    case .request(let ids): queue.requestProducts(ids)
    case .buy(let payment): try engine { try queue.add(payment) }
    case .storePayment(let product): try engine { try queue.startStorePayment(product) }
    case .confirm: try engine { try queue.confirm() }
    case .cancel: try engine { try queue.cancel() }
    case .finish(let reference):
      let id = try resolve(reference)
      try engine { try queue.finish(id) }
    case .finishAll:
      for transaction in queue.queue where transaction.isFinishable {
        try engine { try queue.finish(transaction.id) }
      }
    case .restore: try engine { try queue.restoreCompletedTransactions() }
    case .approve(let reference, let delay), .decline(let reference, let delay):
      let id = try resolve(reference)
      let approving = if case .approve = step.action { true } else { false }
      if let delay {
        let seconds = delay.after(queue.now).timeIntervalSince(queue.now)
        try engine { try queue.schedule(approve: approving, id, after: seconds) }
      } else if approving {
        try engine { try queue.approve(id) }
      } else {
        try engine { try queue.decline(id) }
      }
    case .resolve(let reference):
      let id = try resolve(reference)
      try engine { try queue.resolve(id) }
    case .refund(let reference, let reason):
      let id = try resolve(reference)
      try engine { try queue.refund(id, reason: reason) }
    case .set(let control): apply(control)
    case .fail(let api, let failure): queue.updateControls { $0.failures[api] = failure }
    case .advance(let duration):
      let target = duration.after(queue.now)
      try engine { try queue.advance(to: target) }
    case .relaunch:
      do { try queue.relaunch() } catch { throw .engine(.ledger(error)) }
    case .clearHistory(let name): try engine { try queue.clearPurchaseHistory(account: name) }
    case .autoRenew(let reference, let on):
      let id = try resolve(reference)
      try engine { try queue.setAutoRenew(on, for: id) }
    case .expire(let reference):
      let id = try resolve(reference)
      try engine { try queue.expireSubscription(id) }
    case .renew(let reference):
      let id = try resolve(reference)
      try engine { try queue.forceRenewal(id) }
    case .resolveBilling(let reference):
      let id = try resolve(reference)
      try engine { try queue.resolveBillingIssue(id) }
    case .priceIncrease(let reference, let answer):
      let id = try resolve(reference)
      switch answer {
      case .request: try engine { try queue.requestPriceIncrease(id) }
      case .accept: try engine { try queue.answerPriceIncrease(id, consent: true) }
      case .decline: try engine { try queue.answerPriceIncrease(id, consent: false) }
      }
    case .expect(let expectation):
      flush(line: step.line)
      if let failure = try check(expectation) { throw .assertion(failure) }
    }
  }

  private func apply(_ control: ScenarioStep.Control) {
    queue.updateControls { controls in
      switch control {
      case .askToBuy(let on): controls.askToBuy = on
      case .interrupted(let on): controls.interruptedPurchases = on
      case .canMakePayments(let on): controls.canMakePayments = on
      case .dialogs(let on): controls.dialogsEnabled = on
      case .billingIssue(let on): controls.billingRetry = on
      case .grace(let on): controls.gracePeriod = on
      case .storefront(let code): controls.storefront = code
      case .locale(let locale): controls.locale = locale
      case .latency(let duration): controls.productsLatency = duration.after(Date(timeIntervalSince1970: 0)).timeIntervalSince1970
      case .timeRate(let rate): controls.timeRate = rate.rawValue
      }
    }
  }
}
