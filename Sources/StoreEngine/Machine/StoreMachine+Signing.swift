import Foundation

extension StoreMachine {
  /// The JWS of `transaction`, built by ``SignedPayloads`` and signed by the environment's signer.
  func signTransaction(_ transaction: PaymentTransaction) throws(EngineError) -> String? {
    guard let signer = environment.signer else { return nil }
    let storefrontID = Storefront.lookup(transaction.storefront).map { String($0.id) } ?? "143441"
    // Purchases cannot choose a plan yet, so a product with billing plans is billed up front.
    let plan = catalog.product(transaction.productID)?.subscription?.defaultBillingPlanType
    do {
      return try SignedPayloads.signedTransaction(
        transaction, bundleID: environment.bundleID, signedDate: now, storefrontID: storefrontID,
        billingPlanType: plan, signer: signer)
    } catch {
      throw .signing(transaction: transaction.id, reason: String(describing: error))
    }
  }

  /// The renewal info of an auto-renewable transaction, from its chain's record as it is now.
  func signRenewalInfo(for transaction: PaymentTransaction) throws(EngineError) -> String? {
    guard let signer = environment.signer, transaction.productKind == .autoRenewableSubscription,
      transaction.expiresDate != nil, let record = subscriptionRecords[transaction.originalID]
    else { return nil }
    let renewalPrice = catalog.product(record.renewalProductID).map { Money.rounded($0.price, currencyCode: transaction.currency) } ?? transaction.price
    guard var info = RenewalInfo(renewing: transaction, renewalPrice: renewalPrice, autoRenewProductID: record.renewalProductID)
    else { return nil }
    info.autoRenewStatus = record.autoRenew
    info.isInBillingRetryPeriod = record.status == .inBillingRetry || record.status == .inGracePeriod
    info.gracePeriodExpiresDate = record.gracePeriodExpiresDate
    info.expirationIntent = record.expirationIntent
    do {
      return try SignedPayloads.signedRenewalInfo(info, signedDate: now, signer: signer)
    } catch {
      throw .signing(transaction: transaction.id, reason: String(describing: error))
    }
  }
}
