/// Look Up Order ID's answer: `status` 0 with the order's transactions, or 1 (invalid) without them.
struct OrderLookupResponse: Encodable {
  var status: Int
  var signedTransactions: [String]?
}
