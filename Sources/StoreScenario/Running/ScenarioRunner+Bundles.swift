import Foundation
import StoreEngine

extension ScenarioRunner {
  /// Checks `expect bundle`, `expect previous` and `expect revocation` (DECISIONS §47), in the
  /// engine's transaction and in its signed payload (Apple's JSON names).
  func checkBundle(_ expectation: ScenarioStep.Expectation) throws(StepError) -> String? {
    switch expectation {
    case .bundle(let reference, let bundle):
      let transaction = try lookup(reference)
      let payload = Self.signedPayload(of: transaction)
      let names = ["bundleProductId", "bundleTransactionId", "bundleOriginalTransactionId", "bundleSubscriptionGroupIdentifier"]
      guard let bundle else {
        let present = names.filter { payload[$0] != nil }
        return transaction.bundle?.isComponent != true && present.isEmpty ? nil
          : "expected transaction \(transaction.id) to belong to no bundle, but it carries \(present.joined(separator: ", "))"
      }
      let bundleTransaction = try lookup(.product(bundle))
      let expected: [String: String?] = [
        "bundleProductId": bundle.rawValue, "bundleTransactionId": bundleTransaction.id.description,
        "bundleOriginalTransactionId": bundleTransaction.originalID.description,
        "bundleSubscriptionGroupIdentifier": bundleTransaction.subscriptionGroupID,
      ]
      let link = transaction.bundle
      let engine: [String: String?] = [
        "bundleProductId": link?.productID?.rawValue, "bundleTransactionId": link?.transactionID?.description,
        "bundleOriginalTransactionId": link?.originalTransactionID?.description,
        "bundleSubscriptionGroupIdentifier": link?.subscriptionGroupID,
      ]
      for name in names where payload[name] as? String != expected[name] ?? nil || engine[name] ?? nil != expected[name] ?? nil {
        return "expected transaction \(transaction.id) (\(transaction.productID)) to have \(name) \((expected[name] ?? nil) ?? "none") "
          + "(bundle \(bundle)'s transaction \(bundleTransaction.id)), but its signed payload has \((payload[name] as? String) ?? "none")"
      }
      return nil
    case .previous(let reference, let product):
      let transaction = try lookup(reference)
      let signed = Self.signedPayload(of: transaction)["previousOriginalTransactionId"] as? String
      let actual = transaction.bundle?.previousOriginalID
      guard let product else {
        return actual == nil && signed == nil ? nil
          : "expected transaction \(transaction.id) to have no previousOriginalTransactionId, but it has \(signed ?? actual?.description ?? "?")"
      }
      let chains = try ledgerRead { try queue.history() }.filter { $0.productID == product && $0.bundle?.isComponent != true }
      guard let actual, signed == actual.description, chains.contains(where: { $0.originalID == actual }) else {
        let originals = Set(chains.map(\.originalID.description)).sorted().joined(separator: ", ")
        return "expected transaction \(transaction.id)'s previousOriginalTransactionId to be the original of a \(product) chain "
          + "(\(originals.isEmpty ? "none" : originals)), but it is \(signed ?? "none")"
      }
      return nil
    case .revocation(let product, let reason):
      let own = try ledgerRead { try queue.history() }.filter { $0.productID == product && $0.bundle?.isComponent != true && $0.state == .purchased }
      guard let transaction = own.last else { return "expected a transaction of \(product), but there is none" }
      let actual = transaction.revocationDate == nil ? nil : Self.revocationName(transaction.revocationReason ?? 0)
      return actual == reason ? nil
        : "expected \(product)'s transaction \(transaction.id) to be \(reason.map { "revoked (\($0))" } ?? "not revoked"), but it is \(actual.map { "revoked (\($0))" } ?? "not revoked")"
    default:
      return nil
    }
  }

  static func revocationName(_ reason: Int) -> String {
    switch reason {
    case 1: "developerIssue"
    case PaymentTransaction.upgradedToBundleRevocationReason: "upgradedToBundle"
    default: "other"
    }
  }

  /// The JSON of the transaction's signed payload (empty without one).
  static func signedPayload(of transaction: PaymentTransaction) -> [String: Any] {
    guard let jws = transaction.signedTransaction, let data = try? CompactJWS(jws).payloadData,
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return [:] }
    return object
  }
}
