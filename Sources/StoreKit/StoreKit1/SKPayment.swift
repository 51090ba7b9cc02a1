import Foundation

/// A request to buy a product, added to the payment queue.
///
/// Values are copied when the payment is added: a later change to an ``SKMutablePayment`` does not
/// change a transaction already made from it. As Swift imports Apple's class, `SKPayment()` and
/// `SKMutablePayment()` make an empty payment (a subclass calls `super.init()`).
open class SKPayment: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  // Written only through SKMutablePayment's setters, before the payment is added.
  var storedProductIdentifier = ""
  var storedQuantity = 1
  var storedApplicationUsername: String?
  var storedRequestData: Data?
  var storedSimulatesAskToBuy = false
  var storedDiscount: SKPaymentDiscount?

  /// An empty payment (no product; quantity 1): what `SKMutablePayment()` starts from.
  public override init() {
    super.init()
  }

  /// A payment of one unit of `product`.
  public convenience init(product: SKProduct) {
    self.init()
    storedProductIdentifier = product.productIdentifier
  }

  convenience init(productIdentifier: String) {
    self.init()
    storedProductIdentifier = productIdentifier
  }

  /// A payment with `other`'s values.
  convenience init(copying other: SKPayment) {
    self.init()
    storedProductIdentifier = other.productIdentifier
    storedQuantity = other.quantity
    storedApplicationUsername = other.applicationUsername
    storedRequestData = other.requestData
    storedSimulatesAskToBuy = other.simulatesAskToBuyInSandbox
    storedDiscount = other.paymentDiscount
  }

  open var productIdentifier: String { storedProductIdentifier }
  /// How many units (1 to 10; more than one only for consumables).
  open var quantity: Int { storedQuantity }
  /// An opaque id of the user's account in the app; a UUID becomes the transaction's `appAccountToken`.
  open var applicationUsername: String? { storedApplicationUsername }
  /// Reserved for future use (StoreKit fails a payment that sets it).
  open var requestData: Data? { storedRequestData }
  /// Ask to Buy for this payment only, in the sandbox.
  open var simulatesAskToBuyInSandbox: Bool { storedSimulatesAskToBuy }
  /// The signed promotional offer to apply.
  open var paymentDiscount: SKPaymentDiscount? { storedDiscount }

  open func copy(with zone: NSZone? = nil) -> Any { SKPayment(copying: self) }
  open func mutableCopy(with zone: NSZone? = nil) -> Any { SKMutablePayment(copying: self) }
}

/// A payment whose fields can be set before it is added to the queue.
open class SKMutablePayment: SKPayment, @unchecked Sendable {
  override open var productIdentifier: String {
    get { storedProductIdentifier }
    set { storedProductIdentifier = newValue }
  }
  override open var quantity: Int {
    get { storedQuantity }
    set { storedQuantity = newValue }
  }
  override open var applicationUsername: String? {
    get { storedApplicationUsername }
    set { storedApplicationUsername = newValue }
  }
  override open var requestData: Data? {
    get { storedRequestData }
    set { storedRequestData = newValue }
  }
  override open var simulatesAskToBuyInSandbox: Bool {
    get { storedSimulatesAskToBuy }
    set { storedSimulatesAskToBuy = newValue }
  }
  override open var paymentDiscount: SKPaymentDiscount? {
    get { storedDiscount }
    set { storedDiscount = newValue }
  }
}
