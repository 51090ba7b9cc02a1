import Foundation
import StoreEngine

/// How a scenario run ended.
public enum ScenarioOutcome: Sendable, Equatable {
  case passed(steps: Int)
  /// An `expect` line did not hold.
  case assertionFailed(line: Int, message: String)
  /// The engine could not go on (e.g. the ledger failed).
  case aborted(line: Int, message: String)
}

/// Runs parsed scenario steps against a payment queue, writing each event as it happens. Every
/// line becomes ``StoreCommand``s that the queue performs; only references (`last`, a product) and
/// `expect` are the runner's own.
public final class ScenarioRunner {
  /// The store the steps run against.
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
  /// Signs `buy … offer=… signed` lines (the storefront's promotional-offer key); without one
  /// such a line stops the run.
  public var offerSigner: (any PromotionalOfferSigner)?
  private var signedOffers: UInt64 = 0

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
    do {
      try queue.launch()
    } catch {
      flush(line: nil)
      if case .ledger(let failure) = error { ledgerFailure = failure }
      return .aborted(line: 0, message: ScenarioErrorText.message(for: error))
    }
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
            return .aborted(line: step.line, message: ScenarioErrorText.message(for: error))
          }
          // A refused command is the app's mistake, reported as an `error` event; the run goes on.
          report(.misuse(error), line: step.line)
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
    for event in recorder.drain() { report(event, line: line) }
  }

  private func report(_ event: StoreEvent, line: Int?) {
    if case .restoreFinished(let count) = event { lastRestoredCountValue = count }
    if case .misuse(let error) = event { lastMisuseValue = error.name }
    let records = EventRecord.records(for: event)
    if let name = records.last?.name { lastEventNameValue = name }
    for text in formatter.lines(for: records, at: queue.now, line: line) { write(text) }
  }

  func resolve(_ reference: TransactionReference) throws(StepError) -> PaymentTransaction.ID {
    switch reference {
    case .id(let id):
      return id
    case .last:
      guard let id = queue.lastTransactionID else { throw .engine(.unknownTransaction("last")) }
      return id
    case .product(let product):
      let history: [PaymentTransaction]
      do { history = try queue.history() } catch { throw .engine(.ledger(error)) }
      guard let found = history.last(where: { $0.productID == product }) else {
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

  private func perform(_ command: StoreCommand) throws(StepError) {
    do { try queue.perform(command) } catch { throw .engine(error) }
  }

  private func perform(_ step: ScenarioStep) throws(StepError) {
    switch step.action {
    case .command(let command):
      try perform(command)
    case .transaction(let reference, let verb):
      try perform(verb.command(for: try resolve(reference), now: queue.now))
    case .signedBuy(let payment, let valid):
      try perform(.buy(try signed(payment, valid: valid)))
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
    }
  }
}
