import Foundation

/// A transaction in the payment queue. One object per transaction: the queue updates it in place
/// before each callback that delivers it, as StoreKit does.
///
/// `SKPaymentTransaction()` (and a subclass's `super.init()`) makes a transaction the store does not
/// know: a test double overrides the properties it needs; finishing one is reported, not performed.
open class SKPaymentTransaction: NSObject, @unchecked Sendable {
  /// What the app sees of the transaction at one moment.
  struct Snapshot: @unchecked Sendable {
    var state: SKPaymentTransactionState
    var identifier: String?
    var date: Date?
    var error: (any Error)?
    var original: SKPaymentTransaction?
    var payment: SKPayment
  }

  /// The engine's id of the transaction, also while StoreKit shows none (purchasing, failed); nil
  /// for a transaction the app made itself.
  let engineID: UInt64?
  private let lock = NSLock()
  private var snapshot: Snapshot

  /// A transaction no store made (Apple's inherited `NSObject` initializer): `purchasing`, with an
  /// empty payment, for a subclass to override.
  public override init() {
    engineID = nil
    snapshot = Snapshot(state: .purchasing, payment: SKPayment())
    super.init()
  }

  init(engineID: UInt64, snapshot: Snapshot) {
    self.engineID = engineID
    self.snapshot = snapshot
    super.init()
  }

  func update(_ new: Snapshot) {
    lock.lock()
    defer { lock.unlock() }
    snapshot = new
  }

  private var current: Snapshot {
    lock.lock()
    defer { lock.unlock() }
    return snapshot
  }

  open var transactionState: SKPaymentTransactionState { current.state }
  /// Set when the state is `purchased` or `restored` (Apple: "undefined" otherwise; nil here).
  open var transactionIdentifier: String? { current.identifier }
  /// Set when the state is `purchased` or `restored`.
  open var transactionDate: Date? { current.date }
  /// Why a `failed` transaction failed: an ``SKError``, or an `NSError` of the sandbox's server.
  open var error: (any Error)? { current.error }
  /// For a restored transaction (and a renewal or re-download): the transaction it continues.
  open var original: SKPaymentTransaction? { current.original }
  open var payment: SKPayment { current.payment }
  /// Empty: `.storekit` files (and the engine's catalogs) have no hosted content.
  @available(*, deprecated, message: "Hosted content is no longer supported")
  open var downloads: [SKDownload] { [] }
}

extension SKPaymentTransaction.Snapshot {
  init(state: SKPaymentTransactionState, payment: SKPayment) {
    self.init(state: state, identifier: nil, date: nil, error: nil, original: nil, payment: payment)
  }
}
