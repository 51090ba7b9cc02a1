/// A request's query parameters, looked up by name; repeated names kept in order.
struct QueryParameters {
  var pairs: [(name: String, value: String)]

  /// Every value of `name` (the repeatable filters: `productId`, `productType`, `status`, …).
  func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

  /// The one value of `name`, nil when absent. A parameter Apple takes once, given twice, is invalid
  /// with that parameter's own error.
  func single(_ name: String, invalid error: APIError) throws(APIError) -> String? {
    let found = values(name)
    guard found.count <= 1 else { throw error }
    return found.first
  }
}
