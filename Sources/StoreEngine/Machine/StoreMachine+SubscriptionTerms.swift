import Foundation

extension StoreMachine {
  /// The terms the purchase sheet of an auto-renewable `transaction` states (B73): the price it
  /// renews at and the offer ``deliverPurchase(_:)`` will apply, decided by the same plan as the
  /// quote. Nil for other products.
  func subscriptionTerms(_ transaction: PaymentTransaction) -> SubscriptionTerms<Money>? {
    guard let product = catalog.product(transaction.productID), product.kind == .autoRenewableSubscription,
      let info = product.subscription
    else { return nil }
    let currency = Self.currency(of: transaction.storefront)
    let account = transaction.account.isEmpty ? (currentAccount ?? "") : transaction.account
    let offer: SubscriptionOffer? =
      switch subscriptionPlan(for: product, info: info, account: account, transaction: transaction).kind {
      case .new(let offer, _): offer
      case .offerAtRenewal(_, let offer): offer
      case .upgrade(_, let offer), .change(_, let offer): offer
      case .alreadySubscribed, .refused: nil
      }
    // §43: on the monthly plan the regular period is the month, and the sheet states the commitment.
    let monthly = transaction.billingPlanType == BillingPlan.monthly ? monthlyPlan(of: product) : nil
    return SubscriptionTerms(
      regularPrice: Money(
        monthly.map { Money.rounded($0.price, currencyCode: currency) } ?? listPrice(of: product, quantity: 1, currency: currency),
        currencyCode: currency),
      regularPeriod: monthly == nil ? info.period : Self.commitmentMonth,
      offer: offer.map { offer in
        SubscriptionTerms.Offer(
          kind: offer.kind, paymentMode: offer.paymentMode, period: offer.period, numberOfPeriods: offer.numberOfPeriods,
          price: Money(offer.paymentMode == .freeTrial ? 0 : Money.rounded(offer.price, currencyCode: currency), currencyCode: currency))
      },
      commitment: monthly.map {
        SubscriptionTerms.CommitmentTerms(
          payments: Commitment.monthsInCommitment, total: Money(Money.rounded($0.commitmentPrice, currencyCode: currency), currencyCode: currency))
      })
  }
}
