import Foundation

/// Monthly subscriptions with a 12-month commitment (iOS 26.4, App Store Server API 1.21): a
/// one-year subscription whose catalog has an enabled `MONTHLY` billing plan may be bought on it
/// (`Product.PurchaseOption.billingPlanType(.monthly)`). The customer pays the plan's price each
/// month; twelve payments make one commitment, which renews as a new commitment unless cancelled.
/// Cancelling turns auto-renew off but does not end the commitment: its remaining payments are
/// billed and access lasts to its end (Apple: "canceling before the commitment ends does not end
/// the payment commitment"). DECISIONS §43.
extension StoreMachine {
  /// The monthly period a commitment bills.
  static let commitmentMonth = SubscriptionPeriod(value: 1, unit: .month)

  /// The enabled `MONTHLY` plan of `product`, if the catalog sells it on one.
  func monthlyPlan(of product: Product?) -> BillingPlan? {
    product?.subscription?.billingPlans.first { $0.type == BillingPlan.monthly && $0.isEnabled }
  }

  /// Why a payment's chosen billing plan cannot be sold (`paymentInvalid`), if it cannot: a plan
  /// other than `MONTHLY` and `BILLED_UPFRONT`, a plan on a product that is not an auto-renewable
  /// subscription, or `MONTHLY` on a product whose catalog has no enabled monthly plan.
  func billingPlanRefusal(for payment: Payment, product: Product?) -> StoreKitError? {
    guard let type = payment.billingPlanType, let product else { return nil }
    guard product.kind == .autoRenewableSubscription else { return .paymentInvalid }
    switch type {
    case BillingPlan.upFront: return nil
    case BillingPlan.monthly: return monthlyPlan(of: product) == nil ? .paymentInvalid : nil
    default: return .paymentInvalid
    }
  }

  /// The plan a transaction is billed on, as signed (`billingPlanType`): its own, else the
  /// catalog's default (`BILLED_UPFRONT` for a product with billing plans, nil without).
  func signedBillingPlanType(of transaction: PaymentTransaction) -> String? {
    transaction.billingPlanType ?? catalog.product(transaction.productID)?.subscription?.defaultBillingPlanType
  }

  /// The introductory offer a new subscriber on `plan` gets: the first one for that plan (an
  /// offer that names no plan is for the default, up-front plan).
  func introductoryOffer(of info: SubscriptionInfo, plan: String?) -> SubscriptionOffer? {
    let wanted = plan == BillingPlan.monthly ? BillingPlan.monthly : BillingPlan.upFront
    return info.introductoryOffers.first { ($0.billingPlanType ?? BillingPlan.upFront) == wanted }
  }

  /// What one regular period of `product` costs on `plan`: the monthly plan's price, else the list price.
  func regularPrice(of product: Product, plan: String?) -> Decimal {
    if plan == BillingPlan.monthly, let monthly = monthlyPlan(of: product) { return monthly.price }
    return product.price
  }

  /// True while the chain's current commitment has payments left: its next renewal is billed
  /// whatever auto-renew says, on the current product.
  func isCommitted(_ record: SubscriptionRecord) -> Bool {
    record.commitment?.hasPaymentsLeft ?? false
  }

  /// Bills `transaction` (starting at `start`) as a period of a commitment on `product`'s monthly
  /// plan: the next period of `current` when it has payments left, else period 1 of a new one.
  /// Sets the price, the period's end and the commitment; returns the commitment.
  @discardableResult
  func billMonthly(
    _ transaction: inout PaymentTransaction, product: Product, from start: Date, continuing current: Commitment?
  ) -> Commitment? {
    guard let plan = monthlyPlan(of: product) else { return nil }
    let currency = Self.currency(of: transaction.storefront)
    var commitment: Commitment
    if var next = current, next.hasPaymentsLeft {
      next.billingPeriodNumber += 1
      commitment = next
    } else {
      let total = Commitment.monthsInCommitment
      commitment = Commitment(
        startDate: start, billingPeriodNumber: 1, totalBillingPeriods: total,
        expiresDate: timeRate.end(of: Self.commitmentMonth, from: start, times: total),
        price: Money.rounded(plan.commitmentPrice, currencyCode: currency))
    }
    // Period n ends n months after the commitment began, so the twelfth ends with the commitment.
    let anchored = timeRate.end(of: Self.commitmentMonth, from: commitment.startDate, times: commitment.billingPeriodNumber)
    // A payment recovered late (after billing retry) still buys a month.
    transaction.expiresDate = anchored > start ? anchored : timeRate.end(of: Self.commitmentMonth, from: start)
    transaction.price = Money.rounded(plan.price, currencyCode: currency)
    transaction.billingPlanType = BillingPlan.monthly
    transaction.commitment = commitment
    return commitment
  }
}

extension StoreMachine {
  /// The renewal info's billing plan and commitment (API 1.21): `renewalBillingPlanType` for a
  /// product with billing plans; inside a commitment, the next payment is the month's and
  /// `commitmentInfo` says what the commitment's end brings. A cancelled commitment still bills
  /// its remaining months, so the chain renews (`autoRenewStatus` 1) until its last period, and
  /// the commitment's own status (`commitmentAutoRenewStatus`) says it will not go on.
  func describeCommitment(of record: SubscriptionRecord, in info: inout RenewalInfo) {
    let renewalProduct = catalog.product(record.renewalProductID)
    guard let plans = renewalProduct?.subscription?.billingPlanTypes, !plans.isEmpty || record.commitment != nil else { return }
    let currency = info.currency
    let afterCommitment = record.billingPlanType == BillingPlan.monthly ? BillingPlan.monthly : BillingPlan.upFront
    guard let commitment = record.commitment, record.status != .expired, record.status != .revoked else {
      info.renewalBillingPlanType = afterCommitment
      if afterCommitment == BillingPlan.monthly, let plan = monthlyPlan(of: renewalProduct), info.offerType == nil {
        info.renewalPrice = Money.rounded(plan.price, currencyCode: currency)
      }
      return
    }
    let current = catalog.product(record.productID)
    if commitment.hasPaymentsLeft {
      // The next payment is the commitment's next month, on the current product (Apple's
      // `autoRenewProductId`: "the product that renews at the next billing period").
      info.renewalBillingPlanType = BillingPlan.monthly
      info.autoRenewProductID = record.productID
      info.autoRenewStatus = true
      info.expirationIntent = nil
      if let plan = monthlyPlan(of: current) { info.renewalPrice = Money.rounded(plan.price, currencyCode: currency) }
    } else {
      info.renewalBillingPlanType = afterCommitment
      if afterCommitment == BillingPlan.monthly, let plan = monthlyPlan(of: renewalProduct) {
        info.renewalPrice = Money.rounded(plan.price, currencyCode: currency)
      }
    }
    let nextPrice: Decimal =
      afterCommitment == BillingPlan.monthly
      ? (monthlyPlan(of: renewalProduct)?.commitmentPrice ?? renewalProduct?.price ?? 0) : (renewalProduct?.price ?? 0)
    info.commitment = RenewalCommitment(
      autoRenewProductID: record.renewalProductID, willAutoRenew: record.autoRenew, billingPlanType: afterCommitment,
      renewalDate: commitment.expiresDate, renewalPrice: Money.rounded(nextPrice, currencyCode: currency))
  }
}
