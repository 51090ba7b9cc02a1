// An app-like program: the purchase manager as an app would use it. Run it with the products of a
// `.storekit` file: `STOREKIT_CONFIGURATION=Products.storekit swift run purchase-manager`.
import PurchaseManager
import StoreKit

let productIDs: Set<String> = [
  "com.jake.sample.ExInAppPurchase.shopping", "com.jake.sample.ExInAppPurchase.coins100",
]

@MainActor
final class App {
  let service = IAPService(productIDs: productIDs)
  var done = false

  func run() {
    print("canMakePayments: \(service.canMakePayments)")
    service.getProducts { [self] success, products in
      guard success, let products, !products.isEmpty else {
        print("no products (is STOREKIT_CONFIGURATION set?)")
        done = true
        return
      }
      for product in products {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = product.priceLocale
        print("\(product.productIdentifier): \(product.localizedTitle) \(formatter.string(from: product.price) ?? "\(product.price)")")
      }
      let observer = NotificationCenter.default.addObserver(forName: .iapServicePurchaseNotification, object: nil, queue: .main) { note in
        print("purchased: \(note.object as? String ?? "?")")
        MainActor.assumeIsolated { self.done = true }
      }
      _ = observer
      if let first = products.first { service.buyProduct(first) }
    }
  }
}

// StoreKit delivers its callbacks on the main queue: spin the main run loop until the purchase is through.
MainActor.assumeIsolated {
  let app = App()
  app.run()
  let deadline = Date().addingTimeInterval(10)
  while !app.done && Date() < deadline {
    _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.05))
  }
}
