// An app-like program written against Apple's StoreKit 1 API only, for the tests of an app attached
// to a storefront (issue 25): `storekit-attached-app PRODUCT_ID [COUNT]` loads the product, adds a
// payment (COUNT times, one after the other), prints every observer callback as
// `updated <product> <state> <transaction id or ->` and finishes what it gets, then exits 0 once COUNT
// payments were purchased or failed (transactions its last run left are delivered first, and count),
// exit 1 when the product is not sold or after 60 s. `storekit-attached-app --redeem-code` presents the
// App Store's offer-code sheet instead and waits for the one purchase the code redeems.
import StoreKit

/// `$ATTACHED_APP_JOURNAL`: a file every line is appended to as well, so a test that SIGKILLs the
/// program knows all it said, also what it said after the line the kill followed.
let journal: Int32? = ProcessInfo.processInfo.environment["ATTACHED_APP_JOURNAL"].map { open($0, O_WRONLY | O_APPEND | O_CREAT, 0o644) }

/// One line on standard output, unbuffered: the test reads it while the program runs.
func say(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  if let journal, journal >= 0 { _ = bytes.withUnsafeBytes { write(journal, $0.baseAddress, $0.count) } }
  FileHandle.standardOutput.write(Data(bytes))
}

final class Observer: NSObject, SKPaymentTransactionObserver, SKProductsRequestDelegate {
  var remaining: Int
  var failed = false
  var product: SKProduct?

  init(count: Int) { remaining = count }

  var done: Bool { failed || remaining <= 0 }

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
      say("updated \(transaction.payment.productIdentifier) \(state) \(transaction.transactionIdentifier ?? "-")")
      if transaction.transactionState == .purchased || transaction.transactionState == .failed {
        queue.finishTransaction(transaction)
        remaining -= 1
        buyNext()
      }
    }
  }

  func buyNext() {
    guard let product, remaining > 0 else { return }
    say("adding \(product.productIdentifier)")
    SKPaymentQueue.default().add(SKPayment(product: product))
  }

  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
    say("products \(response.products.map(\.productIdentifier).joined(separator: ",")) invalid \(response.invalidProductIdentifiers.joined(separator: ","))")
    guard let product = response.products.first else {
      failed = true
      return
    }
    self.product = product
    // A purchase the last run left waiting is asked again: it counts as this run's first.
    if SKPaymentQueue.default().transactions.contains(where: { $0.transactionState == .purchasing }) { return }
    buyNext()
  }

  func request(_ request: SKRequest, didFailWithError error: any Error) {
    say("products failed \((error as? SKError)?.code.rawValue ?? -1)")
    failed = true
  }
}

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--redeem-code" {
  let observer = Observer(count: 1)
  SKPaymentQueue.default().add(observer)
  say("presenting the code sheet")
  SKPaymentQueue.default().presentCodeRedemptionSheet()
  let deadline = Date().addingTimeInterval(60)
  while !observer.done && Date() < deadline {
    _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
  exit(observer.done ? 0 : 1)
}
guard arguments.count == 2 || arguments.count == 3, let count = Int(arguments.count == 3 ? arguments[2] : "1"), count > 0 else {
  FileHandle.standardError.write(Data("usage: storekit-attached-app PRODUCT_ID [COUNT] | --redeem-code\n".utf8))
  exit(64)
}
let observer = Observer(count: count)
SKPaymentQueue.default().add(observer)
let request = SKProductsRequest(productIdentifiers: [arguments[1]])
request.delegate = observer
request.start()
let deadline = Date().addingTimeInterval(60)
while !observer.done && Date() < deadline {
  _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
}
exit(observer.done && !observer.failed ? 0 : 1)
