import Foundation

/// What a request's delegate hears; both methods are optional (defaults do nothing).
public protocol SKRequestDelegate: NSObjectProtocol {
  /// The request finished (after its response, for a products request).
  func requestDidFinish(_ request: SKRequest)
  /// The request failed.
  func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
  public func requestDidFinish(_ request: SKRequest) {}
  public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}

/// A request to the App Store; its delegate hears the answer on the main queue. Not `Sendable`, as
/// Apple's (NS_SWIFT_NONSENDABLE): a request belongs to the code that started it.
open class SKRequest: NSObject {
  /// A request that sends nothing (a subclass's `super.init()`).
  public override init() {
    super.init()
  }

  private let delegateLock = NSLock()
  private weak var storedDelegate: (any SKRequestDelegate)?
  private var cancelled = false

  /// Not retained, as in StoreKit.
  open var delegate: (any SKRequestDelegate)? {
    get {
      delegateLock.lock()
      defer { delegateLock.unlock() }
      return storedDelegate
    }
    set {
      delegateLock.lock()
      defer { delegateLock.unlock() }
      storedDelegate = newValue
    }
  }

  /// Sends the request.
  open func start() {}

  /// The delegate hears nothing more from this request.
  open func cancel() {
    delegateLock.lock()
    defer { delegateLock.unlock() }
    cancelled = true
  }

  var isCancelled: Bool {
    delegateLock.lock()
    defer { delegateLock.unlock() }
    return cancelled
  }
}

/// The answer to a products request. `SKProductsResponse()` is an empty answer, for a test double.
open class SKProductsResponse: NSObject, @unchecked Sendable {
  // Set once, by the initializer.
  private var storedProducts: [SKProduct] = []
  private var storedInvalid: [String] = []

  /// An empty response (Apple's inherited `NSObject` initializer), for a subclass to fill.
  public override init() {
    super.init()
  }

  init(products: [SKProduct], invalidProductIdentifiers: [String]) {
    storedProducts = products
    storedInvalid = invalidProductIdentifiers
    super.init()
  }

  /// The products the App Store sells, in the order of the request's identifiers' catalog order.
  open var products: [SKProduct] { storedProducts }
  /// The requested identifiers the App Store does not know.
  open var invalidProductIdentifiers: [String] { storedInvalid }
}

/// What a products request's delegate implements.
public protocol SKProductsRequestDelegate: SKRequestDelegate {
  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

/// Asks the App Store for products by identifier (`delegate` is an ``SKProductsRequestDelegate``).
open class SKProductsRequest: SKRequest {
  let productIdentifiers: Set<String>

  public init(productIdentifiers: Set<String>) {
    self.productIdentifiers = productIdentifiers
    super.init()
  }

  /// The request's delegate, typed as Apple's (`request.delegate?.productsRequest(…)` compiles):
  /// the same storage as ``SKRequest/delegate``, so either spelling sets it. Not retained.
  @_nonoverride open var delegate: (any SKProductsRequestDelegate)? {
    get { (self as SKRequest).delegate as? any SKProductsRequestDelegate }
    set { (self as SKRequest).delegate = newValue }
  }

  override open func start() {
    StoreKitEnvironment.shared.startProductsRequest(self)
  }
}

/// Asks for a fresh app receipt, written where `Bundle.main.appStoreReceiptURL` points.
open class SKReceiptRefreshRequest: SKRequest {
  private let storedProperties: [String: Any]?

  /// A request for a new receipt; `properties` are the sandbox's test properties
  /// (``SKReceiptPropertyIsExpired``…), which the simulated store keeps but does not apply.
  public init(receiptProperties properties: [String: Any]? = nil) {
    storedProperties = properties
    super.init()
  }

  /// The test properties the request was made with.
  open var receiptProperties: [String: Any]? { storedProperties }

  override open func start() {
    StoreKitEnvironment.shared.refreshReceipt(self)
  }
}

extension Bundle {
  /// The app receipt file (PKCS#7, signed by the store's sandbox CA): written with the signed-in
  /// account's purchases as they are when this is read, so `Data(contentsOf:)` reads a current one.
  /// Nil when the receipt cannot be made (the store failed to open); the reason is reported.
  public var appStoreReceiptURL: URL? {
    StoreKitEnvironment.shared.currentReceiptURL()
  }
}
