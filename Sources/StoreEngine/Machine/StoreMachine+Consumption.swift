import Foundation

extension StoreMachine {
  /// Keeps what the app's server reported on the transaction; the signed transaction stays as it is.
  mutating func storeConsumption(_ information: ConsumptionInformation, for id: PaymentTransaction.ID) throws(EngineError) {
    guard var transaction = transactions[id] else { throw .unknownTransaction(id.description) }
    transaction.consumption = information
    step.emit(.transactionsAmended([try put(transaction)]))
  }
}
