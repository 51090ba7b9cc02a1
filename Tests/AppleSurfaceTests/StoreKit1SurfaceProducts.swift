// Apple's StoreKit 1 products, subscription periods and discounts, and the promoted-purchase
// controller, named with Apple's signatures (declarations/storekit1.txt).
import Foundation
import StoreKit

/// Compiled, never called: each line type-checks one declaration against Apple's signature.
func storeKit1ProductSurface(_ product: SKProduct) {
  // decl: SKProduct
  let _: NSObject = product
  let _: any Sendable = product
  let _: SKProduct = SKProduct()
  // decl: SKProduct.localizedDescription
  let _: KeyPath<SKProduct, String> = \.localizedDescription
  // decl: SKProduct.localizedTitle
  let _: KeyPath<SKProduct, String> = \.localizedTitle
  // decl: SKProduct.price
  let _: KeyPath<SKProduct, NSDecimalNumber> = \.price
  // decl: SKProduct.priceLocale
  let _: KeyPath<SKProduct, Locale> = \.priceLocale
  // decl: SKProduct.productIdentifier
  let _: KeyPath<SKProduct, String> = \.productIdentifier
  // decl: SKProduct.isFamilyShareable
  let _: KeyPath<SKProduct, Bool> = \.isFamilyShareable
  // decl: SKProduct.contentVersion
  let _: KeyPath<SKProduct, String> = \.contentVersion
  // decl: SKProduct.subscriptionPeriod
  let _: KeyPath<SKProduct, SKProductSubscriptionPeriod?> = \.subscriptionPeriod
  // decl: SKProduct.introductoryPrice
  let _: KeyPath<SKProduct, SKProductDiscount?> = \.introductoryPrice
  // decl: SKProduct.subscriptionGroupIdentifier
  let _: KeyPath<SKProduct, String?> = \.subscriptionGroupIdentifier
  // decl: SKProduct.discounts
  let _: KeyPath<SKProduct, [SKProductDiscount]> = \.discounts

  // decl: SKProduct.PeriodUnit
  let _: UInt = SKProduct.PeriodUnit.day.rawValue
  // decl: SKProduct.PeriodUnit.day
  // decl: SKProduct.PeriodUnit.week
  // decl: SKProduct.PeriodUnit.month
  // decl: SKProduct.PeriodUnit.year
  let _: [SKProduct.PeriodUnit] = [.day, .week, .month, .year]

  // decl: SKProductSubscriptionPeriod
  let period: SKProductSubscriptionPeriod = SKProductSubscriptionPeriod()
  let _: NSObject = period
  // decl: SKProductSubscriptionPeriod.numberOfUnits
  let _: Int = period.numberOfUnits
  // decl: SKProductSubscriptionPeriod.unit
  let _: SKProduct.PeriodUnit = period.unit

  // decl: SKProductDiscount
  let discount: SKProductDiscount = SKProductDiscount()
  let _: NSObject = discount
  // decl: SKProductDiscount.price
  let _: NSDecimalNumber = discount.price
  // decl: SKProductDiscount.priceLocale
  let _: Locale = discount.priceLocale
  // decl: SKProductDiscount.identifier
  let _: String? = discount.identifier
  // decl: SKProductDiscount.subscriptionPeriod
  let _: SKProductSubscriptionPeriod = discount.subscriptionPeriod
  // decl: SKProductDiscount.numberOfPeriods
  let _: Int = discount.numberOfPeriods
  // decl: SKProductDiscount.paymentMode
  let _: SKProductDiscount.PaymentMode = discount.paymentMode
  // decl: SKProductDiscount.type
  let _: SKProductDiscount.`Type` = discount.type
  // decl: SKProductDiscount.PaymentMode
  let _: UInt = SKProductDiscount.PaymentMode.freeTrial.rawValue
  // decl: SKProductDiscount.PaymentMode.payAsYouGo
  // decl: SKProductDiscount.PaymentMode.payUpFront
  // decl: SKProductDiscount.PaymentMode.freeTrial
  let _: [SKProductDiscount.PaymentMode] = [.payAsYouGo, .payUpFront, .freeTrial]
  // decl: SKProductDiscount.Type
  let introductory: SKProductDiscount.`Type` = .introductory
  let _: UInt = introductory.rawValue
  // decl: SKProductDiscount.Type.introductory
  // decl: SKProductDiscount.Type.subscription
  let _: [SKProductDiscount.`Type`] = [.introductory, .subscription]
}

/// Compiled, never called: the promoted in-app purchases of the App Store page.
func storeKit1PromotionSurface(_ product: SKProduct) async throws {
  // decl: SKProductStorePromotionController
  let controller: SKProductStorePromotionController = SKProductStorePromotionController()
  let _: NSObject = controller
  // decl: SKProductStorePromotionController.default()
  let _: () -> SKProductStorePromotionController = SKProductStorePromotionController.default
  // decl: SKProductStorePromotionController.fetchStorePromotionVisibility(for:completionHandler:)
  let _: (SKProductStorePromotionController) -> (SKProduct, (@Sendable (SKProductStorePromotionVisibility, Error?) -> Void)?) -> Void =
    SKProductStorePromotionController.fetchStorePromotionVisibility(for:completionHandler:)
  controller.fetchStorePromotionVisibility(for: product)
  // decl: SKProductStorePromotionController.update(storePromotionVisibility:for:completionHandler:)
  let _: (SKProductStorePromotionController) -> (SKProductStorePromotionVisibility, SKProduct, (@Sendable (Error?) -> Void)?) -> Void =
    SKProductStorePromotionController.update(storePromotionVisibility:for:completionHandler:)
  controller.update(storePromotionVisibility: .hide, for: product)
  // decl: SKProductStorePromotionController.fetchStorePromotionOrder(completionHandler:)
  let _: (SKProductStorePromotionController) -> ((@Sendable ([SKProduct], Error?) -> Void)?) -> Void =
    SKProductStorePromotionController.fetchStorePromotionOrder(completionHandler:)
  controller.fetchStorePromotionOrder()
  // decl: SKProductStorePromotionController.update(storePromotionOrder:completionHandler:)
  let _: (SKProductStorePromotionController) -> ([SKProduct], (@Sendable (Error?) -> Void)?) -> Void =
    SKProductStorePromotionController.update(storePromotionOrder:completionHandler:)
  controller.update(storePromotionOrder: [product])
  // decl: SKProductStorePromotionController.promotionVisibility(for:)
  let _: SKProductStorePromotionVisibility = try await controller.promotionVisibility(for: product)
  // decl: SKProductStorePromotionController.update(promotionVisibility:for:)
  try await controller.update(promotionVisibility: .show, for: product)
  // decl: SKProductStorePromotionController.promotionOrder()
  let _: [SKProduct] = try await controller.promotionOrder()
  // decl: SKProductStorePromotionController.update(promotionOrder:)
  try await controller.update(promotionOrder: [product])

  // decl: SKProductStorePromotionVisibility
  let _: Int = SKProductStorePromotionVisibility.default.rawValue
  // decl: SKProductStorePromotionVisibility.default
  // decl: SKProductStorePromotionVisibility.show
  // decl: SKProductStorePromotionVisibility.hide
  let _: [SKProductStorePromotionVisibility] = [.default, .show, .hide]
}
