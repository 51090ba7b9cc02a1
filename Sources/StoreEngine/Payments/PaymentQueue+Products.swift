import Foundation

/// The answer to a products request (`SKProductsResponse`).
public struct ProductsResponse: Sendable, Equatable {
  public var products: [Product]
  public var invalidProductIdentifiers: [String]
}

extension PaymentQueue {
  /// Starts a products request (`SKProductsRequest`); `completion` gets the response or the error.
  ///
  /// With no simulated latency the answer arrives before this returns; otherwise when the clock has
  /// advanced past the latency. A simulated "Load Products" error fails the request.
  /// - Returns: the request's number, which its events carry.
  @discardableResult
  public func requestProducts(
    _ identifiers: [String], completion: ((Result<ProductsResponse, StoreKitError>) -> Void)? = nil
  ) -> Int {
    let request = nextRequestID
    nextRequestID += 1
    pendingRequests[request] = identifiers
    if let completion { productCallbacks[request] = completion }
    if controls.productsLatency > 0 {
      schedule(.deliverProducts(request: request), at: now.addingTimeInterval(controls.productsLatency))
    } else {
      deliverProducts(request)
    }
    return request
  }

  /// The `async` form of ``requestProducts(_:completion:)``.
  public func products(for identifiers: [String]) async throws(StoreKitError) -> ProductsResponse {
    let result = await withCheckedContinuation { continuation in
      requestProducts(identifiers) { continuation.resume(returning: $0) }
    }
    return try result.get()
  }

  func deliverProducts(_ request: Int) {
    guard let identifiers = pendingRequests.removeValue(forKey: request) else { return }
    let completion = productCallbacks.removeValue(forKey: request)
    if let failure = controls.failures[.loadProducts], roll(failure.chance) {
      emit([.productsRequestFailed(request: request, error: failure.error)])
      completion?(.failure(failure.error))
      return
    }
    var products: [Product] = []
    var invalid: [String] = []
    for identifier in identifiers {
      if let product = catalog.product(Product.ID(identifier)) { products.append(product) } else { invalid.append(identifier) }
    }
    emit([.productsResponse(request: request, products: products.map(\.id), invalidIdentifiers: invalid)])
    completion?(.success(ProductsResponse(products: products, invalidProductIdentifiers: invalid)))
  }
}
