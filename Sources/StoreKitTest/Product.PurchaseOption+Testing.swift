import Foundation
import StoreKit

/// StoreKitTest's purchase options, for `SKTestSession.buyProduct(identifier:options:)`: what Xcode's
/// transaction manager can do that an app's purchase cannot.
extension Product.PurchaseOption {
  /// What happens to a subscription bought at a past date between that date and now.
  public enum SubscriptionRenewalBehavior: Codable, Hashable, Sendable {
    /// It renews period after period up to now.
    case renewUntilNow
    /// Auto-renew is off from the start: it expires at the end of its first period.
    case cancelImmediately
  }

  /// Applies the product's promotional offer `identifier` without a signature.
  public static func promotionalOffer(id identifier: String) -> Product.PurchaseOption {
    Product.PurchaseOption(value: .testPromotionalOffer(id: identifier))
  }

  /// Applies the product's offer code with this reference name (as if the code were redeemed).
  public static func codeOffer(referenceName: String) -> Product.PurchaseOption {
    Product.PurchaseOption(value: .testCodeOffer(referenceName: referenceName))
  }

  /// Buys as if at `date` (in the past); a subscription then renews up to now or was cancelled at once.
  public static func purchaseDate(_ date: Date, renewalBehavior: SubscriptionRenewalBehavior = .renewUntilNow) -> Product.PurchaseOption {
    let behavior: Product.PurchaseOption.TestRenewalBehavior =
      switch renewalBehavior {
      case .renewUntilNow: .init(rawValue: "renewUntilNow")
      case .cancelImmediately: .init(rawValue: "cancelImmediately")
      }
    return Product.PurchaseOption(value: .testPurchaseDate(date, renewalBehavior: behavior))
  }
}
