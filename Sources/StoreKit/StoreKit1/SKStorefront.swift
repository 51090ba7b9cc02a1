import Foundation

/// The App Store storefront of the account (`SKPaymentQueue.default().storefront`).
open class SKStorefront: NSObject, @unchecked Sendable {
  /// ISO 3166-1 alpha-3 code, e.g. `USA`.
  public let countryCode: String
  /// Apple's storefront id, e.g. `143441`.
  public let identifier: String

  init(countryCode: String, identifier: String) {
    self.countryCode = countryCode
    self.identifier = identifier
    super.init()
  }
}
