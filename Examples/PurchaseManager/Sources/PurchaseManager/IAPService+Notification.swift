import Foundation

extension Notification.Name {
  /// Posted by ``IAPService`` with the product id as `object` when a purchase or restore goes through.
  public static let iapServicePurchaseNotification = Notification.Name("IAPServicePurchaseNotification")
}
