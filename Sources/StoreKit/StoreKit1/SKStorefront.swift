import Foundation

/// The App Store storefront of the account (`SKPaymentQueue.default().storefront`).
open class SKStorefront: NSObject, @unchecked Sendable {
  // Set once, by the initializer.
  private var storedCountryCode = ""
  private var storedIdentifier = ""

  /// An empty storefront (Apple's inherited `NSObject` initializer), for a subclass to fill.
  public override init() {
    super.init()
  }

  init(countryCode: String, identifier: String) {
    storedCountryCode = countryCode
    storedIdentifier = identifier
    super.init()
  }

  /// ISO 3166-1 alpha-3 code, e.g. `USA`.
  open var countryCode: String { storedCountryCode }
  /// Apple's storefront id, e.g. `143441`.
  open var identifier: String { storedIdentifier }
}
