import Foundation

extension StoreMachine {
  /// The JWS of `transaction`, built by ``SignedPayloads`` and signed by the environment's signer.
  func signTransaction(_ transaction: PaymentTransaction) throws(EngineError) -> String? {
    guard let signer = environment.signer else { return nil }
    let storefrontID = Storefront.lookup(transaction.storefront).map { String($0.id) } ?? "143441"
    // The plan chosen (MONTHLY), else the catalog's default (BILLED_UPFRONT) for a product with plans.
    let plan = signedBillingPlanType(of: transaction)
    do {
      return try SignedPayloads.signedTransaction(
        transaction, bundleID: environment.bundleID, signedDate: now, storefrontID: storefrontID,
        billingPlanType: plan, signer: signer)
    } catch {
      throw .signing(transaction: transaction.id, reason: String(describing: error))
    }
  }

  /// The renewal info an auto-renewable transaction carries: its chain's, as last signed.
  func renewalInfoJWS(for transaction: PaymentTransaction) -> String? {
    guard transaction.productKind == .autoRenewableSubscription, transaction.expiresDate != nil else { return nil }
    return subscriptionRecords[transaction.originalID]?.signedRenewalInfo
  }

  /// The renewal info of a chain as `record` says it is now, signed (nil without a signer).
  /// `current` is the chain's new period when it is not stored yet (a purchase or upgrade).
  func signRenewalInfo(for record: SubscriptionRecord, current: PaymentTransaction? = nil) throws(EngineError) -> String? {
    guard let signer = environment.signer else { return nil }
    do {
      return try SignedPayloads.signedRenewalInfo(renewalInfo(of: record, current: current), signedDate: now, signer: signer)
    } catch {
      throw .signing(transaction: record.originalID, reason: String(describing: error))
    }
  }

  /// The renewal info of `record`: what the next renewal will bill (product, price, offer) and why
  /// it will not, if it will not.
  func renewalInfo(of record: SubscriptionRecord, current period: PaymentTransaction? = nil) -> RenewalInfo {
    let product = catalog.product(record.renewalProductID)
    // N5: the renewal info signed at purchase carries the new period's appAccountToken too.
    let current = period ?? currentTransaction(of: record)
    let start = record.recentStartDate ?? firstPurchaseDate(of: record) ?? record.expiresDate
    let currency = Self.currency(of: controls.storefront)
    var info = RenewalInfo(
      originalTransactionID: record.originalID, autoRenewProductID: record.renewalProductID,
      productID: record.productID, autoRenewStatus: record.autoRenew, renewalDate: record.expiresDate,
      recentSubscriptionStartDate: start, currency: currency,
      // B61: in the currency's units (whole won and yen).
      renewalPrice: Money.rounded(record.increasedPrice ?? product?.price ?? current?.price ?? 0, currencyCode: currency),
      appAccountToken: current?.appAccountToken)
    // B43: `expirationIntent` describes an expired subscription, never an active one.
    info.expirationIntent = record.status == .expired ? record.expirationIntent : nil
    info.isInBillingRetryPeriod = record.status == .inBillingRetry || record.status == .inGracePeriod
    info.gracePeriodExpiresDate = record.status == .inGracePeriod ? record.gracePeriodExpiresDate : nil
    info.priceIncreaseStatus = record.priceIncreaseStatus
    if let pending = record.renewalOffer, let offer = catalogOffer(pending, of: record.renewalProductID) {
      // B33: the offer the next renewal uses, e.g. period 2 of a pay-as-you-go introductory offer.
      info.offerType = offer.kind
      info.offerID = Self.signedIdentifier(of: offer)
      info.offerPaymentMode = offer.paymentMode
      info.offerPeriod = Self.wholePeriod(of: offer)
      info.renewalPrice = offer.paymentMode == .freeTrial ? 0 : Money.rounded(offer.price, currencyCode: currency)
    }
    describeCommitment(of: record, in: &info)
    if record.status == .expired, let winBack = product?.subscription?.winBackOffers, !winBack.isEmpty {
      // B53: a lapsed subscriber may redeem the product's win-back offers.
      info.eligibleWinBackOfferIDs = winBack.map(\.id)
    }
    return info
  }
}
