import Foundation

extension StoreMachine {
  /// Starts a products request (`SKProductsRequest`). With no simulated latency the answer is in
  /// this step; otherwise it comes when the clock has advanced past the latency.
  mutating func requestProducts(_ identifiers: [String]) {
    let request = nextRequestID
    nextRequestID += 1
    pendingRequests[request] = identifiers
    step.productsRequest = request
    if controls.productsLatency > 0 {
      schedule(.deliverProducts(request: request), at: now.addingTimeInterval(controls.productsLatency))
    } else {
      deliverProducts(request)
    }
  }

  mutating func deliverProducts(_ request: Int) {
    guard let identifiers = pendingRequests.removeValue(forKey: request) else { return }
    if let failure = controls.failures[.loadProducts], roll(failure.chance) {
      step.emit(.productsRequestFailed(request: request, error: failure.error))
      return
    }
    var products: [Product.ID] = []
    var invalid: [String] = []
    for identifier in identifiers {
      let id = Product.ID(identifier)
      if catalog.product(id) != nil { products.append(id) } else { invalid.append(identifier) }
    }
    step.emit(.productsResponse(request: request, products: products, invalidIdentifiers: invalid))
  }
}
