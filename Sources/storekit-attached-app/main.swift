// An app-like program written against Apple's StoreKit 1 API only, for the tests of an app attached
// to a storefront (issue 25): `storekit-attached-app PRODUCT_ID` loads the product, adds a payment,
// prints every observer callback as `updated <product> <state>` and finishes what it gets, then
// exits when the payment is purchased or failed (exit 0), or after 60 s (exit 1).
import StoreKit

/// One line on standard output, unbuffered: the test reads it while the program runs.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

final class Observer: NSObject, SKPaymentTransactionObserver, SKProductsRequestDelegate {
  var done = false
  var failed = false

  func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
    for transaction in transactions {
      let state: String
      switch transaction.transactionState {
      case .purchasing: state = "purchasing"
      case .purchased: state = "purchased"
      case .failed: state = "failed \((transaction.error as? SKError)?.code.rawValue ?? -1)"
      case .restored: state = "restored"
      case .deferred: state = "deferred"
      @unknown default: state = "unknown"
      }
      say("updated \(transaction.payment.productIdentifier) \(state)")
      if transaction.transactionState == .purchased || transaction.transactionState == .failed {
        queue.finishTransaction(transaction)
        done = true
      }
    }
  }

  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    say("products \(response.products.map(\.productIdentifier).joined(separator: ",")) invalid \(response.invalidProductIdentifiers.joined(separator: ","))")
    guard let product = response.products.first else {
      failed = true
      done = true
      return
    }
    SKPaymentQueue.default().add(SKPayment(product: product))
  }

  func request(_ request: SKRequest, didFailWithError error: any Error) {
    say("products failed \((error as? SKError)?.code.rawValue ?? -1)")
    failed = true
    done = true
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: storekit-attached-app PRODUCT_ID\n".utf8))
  exit(64)
}
let observer = Observer()
SKPaymentQueue.default().add(observer)
let request = SKProductsRequest(productIdentifiers: [arguments[1]])
request.delegate = observer
request.start()
let deadline = Date().addingTimeInterval(60)
while !observer.done && Date() < deadline {
  _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
}
exit(observer.done && !observer.failed ? 0 : 1)
