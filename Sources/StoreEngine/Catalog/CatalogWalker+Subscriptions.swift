import Foundation

/// Subscription groups, auto-renewable subscriptions, their offers and billing plans.
extension CatalogWalker {
  mutating func subscriptionGroup(_ value: JSONValue, path: JSONPath, kind: SubscriptionGroup.Kind) -> (SubscriptionGroup, [Product])? {
    guard let object = value.objectValue else {
      report(path, "must be a subscription group object, not \(value.kind)", hint: "write { \"id\" : \"…\", \"name\" : \"…\", \"subscriptions\" : [ … ] }")
      return nil
    }
    let name = string(object, "name", in: path) ?? ""
    let id = string(object, "id", in: path) ?? name
    let localizations = self.localizations(object["localizations"], path: path.appending("localizations"))
    var products: [Product] = []
    if let value = object["subscriptions"] {
      let subscriptionsPath = path.appending("subscriptions")
      if let array = value.arrayValue {
        for (index, element) in array.enumerated() {
          if let product = subscription(element, path: subscriptionsPath.appending(index), groupID: id, groupKind: kind) {
            products.append(product)
          }
        }
      } else {
        report(subscriptionsPath, "must be an array of subscriptions, not \(value.kind)", hint: "write \"subscriptions\" : [ … ]")
      }
    }
    let group = SubscriptionGroup(id: id, name: name, localizations: localizations, productIDs: products.map(\.id), kind: kind)
    return (group, products)
  }

  private mutating func subscription(_ value: JSONValue, path: JSONPath, groupID: String, groupKind: SubscriptionGroup.Kind) -> Product? {
    // A bundle or suite is sold as one auto-renewable subscription; its own type name is accepted too.
    let aliases: [String: ProductKind] = switch groupKind {
    case .regular: [:]
    case .bundle: ["SubscriptionBundle": .autoRenewableSubscription]
    case .suite: ["SubscriptionSuite": .autoRenewableSubscription]
    }
    let fields = productFields(value, path: path, allowed: [.autoRenewableSubscription], container: "subscriptions", typeAliases: aliases)
    guard let object = value.objectValue else { return nil }
    let issueCount = issues.count
    let level = int(object, "groupNumber", in: path, required: true)
    let period = self.period(object, "recurringSubscriptionPeriod", in: path, required: true)

    var introductory = offerArray(object, "introductoryOffers", kind: .introductory, path: path)
    if let single = object["introductoryOffer"], !single.isNull {
      // Format 5.0 writes the same offer in both keys; keep it once.
      if let offer = self.offer(single, kind: .introductory, path: path.appending("introductoryOffer")),
        !introductory.contains(where: { $0.id == offer.id })
      {
        introductory.insert(offer, at: 0)
      }
    }
    let promotional = offerArray(object, "adHocOffers", kind: .promotional, path: path)
    let code = offerArray(object, "codeOffers", kind: .code, path: path)
    let winBack = offerArray(object, "winbackOffers", kind: .winBack, path: path)
    let plans = billingPlans(object["billingPlans"], path: path.appending("billingPlans"))
    let bundled = groupKind == .regular ? [] : bundledSubscriptions(object, path: path, groupKind: groupKind)

    guard let fields, issues.count == issueCount, let level, let period else { return nil }
    let info = SubscriptionInfo(groupID: groupID, level: level, period: period, introductoryOffers: introductory, promotionalOffers: promotional, codeOffers: code, winBackOffers: winBack, billingPlans: plans, bundledSubscriptions: bundled)
    return Product(id: fields.id, kind: .autoRenewableSubscription, referenceName: fields.referenceName, price: fields.price, familyShareable: fields.familyShareable, internalID: fields.internalID, localizations: fields.localizations, subscription: info)
  }

  private mutating func offerArray(_ object: [String: JSONValue], _ key: String, kind: SubscriptionOffer.Kind, path: JSONPath) -> [SubscriptionOffer] {
    guard let value = object[key], !value.isNull else { return [] }
    let arrayPath = path.appending(key)
    guard let array = value.arrayValue else {
      report(arrayPath, "must be an array of offers, not \(value.kind)", hint: "write \"\(key)\" : [ … ], or [] for none")
      return []
    }
    return array.enumerated().compactMap { index, element in
      offer(element, kind: kind, path: arrayPath.appending(index))
    }
  }

  private mutating func offer(_ value: JSONValue, kind: SubscriptionOffer.Kind, path: JSONPath) -> SubscriptionOffer? {
    guard let object = value.objectValue else {
      report(path, "must be an offer object, not \(value.kind)", hint: "write { \"paymentMode\" : \"free\", \"subscriptionPeriod\" : \"P1W\", … }")
      return nil
    }
    let issueCount = issues.count
    let mode = paymentMode(object, path: path)
    let period = self.period(object, "subscriptionPeriod", in: path, required: true)
    let count = int(object, "numberOfPeriods", in: path) ?? 1
    if count < 1 {
      report(path.appending("numberOfPeriods"), "numberOfPeriods must be at least 1, not \(count)", hint: "write \"numberOfPeriods\" : 1 or more")
    }
    let price = self.price(object, "displayPrice", in: path) ?? 0
    let internalID = string(object, "internalID", in: path)
    let offerID = string(object, "offerID", in: path)
    let referenceName = string(object, "referenceName", in: path) ?? ""
    let eligibility = stringArray(object, "eligibility", in: path)
    let isStackable = bool(object, "isStackable", in: path) ?? false
    let planType = string(object, "billingPlanType", in: path)
    guard issues.count == issueCount, let mode, let period else { return nil }
    let id = (kind == .promotional ? offerID ?? internalID : internalID ?? offerID) ?? referenceName
    return SubscriptionOffer(kind: kind, id: id, referenceName: referenceName, paymentMode: mode, period: period, numberOfPeriods: count, price: mode == .freeTrial ? 0 : price, eligibility: eligibility, isStackable: isStackable, billingPlanType: planType)
  }

  private mutating func paymentMode(_ object: [String: JSONValue], path: JSONPath) -> SubscriptionOffer.PaymentMode? {
    guard let text = string(object, "paymentMode", in: path, required: true, example: "free") else { return nil }
    if let mode = SubscriptionOffer.PaymentMode(rawValue: text), SubscriptionOffer.PaymentMode.catalogModes.contains(mode) { return mode }
    let names = SubscriptionOffer.PaymentMode.catalogModes.map(\.rawValue)
    let didYouMean = NearMatch.closest(to: text, in: names).map { "did you mean '\($0)'? " } ?? ""
    report(path.appending("paymentMode"), "unknown payment mode '\(text)'", hint: "\(didYouMean)use one of: \(names.joined(separator: ", "))")
    return nil
  }

  private mutating func billingPlans(_ value: JSONValue?, path: JSONPath) -> [BillingPlan] {
    guard let value, !value.isNull else { return [] }
    guard let array = value.arrayValue else {
      report(path, "must be an array of billing plans, not \(value.kind)", hint: "write \"billingPlans\" : [ … ], or [] for none")
      return []
    }
    var plans: [BillingPlan] = []
    for (index, element) in array.enumerated() {
      let planPath = path.appending(index)
      guard let object = element.objectValue else {
        report(planPath, "must be a billing plan object, not \(element.kind)", hint: "write { \"billingPlanType\" : \"MONTHLY\", \"displayPrice\" : \"0.99\", … }")
        continue
      }
      let type = string(object, "billingPlanType", in: planPath, required: true, example: "BILLED_UPFRONT")
      let price = self.price(object, "displayPrice", in: planPath, required: true)
      let commitment = self.price(object, "commitmentDisplayPrice", in: planPath)
      let enabled = bool(object, "isEnabled", in: planPath) ?? true
      if let type, let price {
        plans.append(BillingPlan(type: type, price: price, commitmentPrice: commitment ?? price, isEnabled: enabled))
      }
    }
    return plans
  }

  private mutating func stringArray(_ object: [String: JSONValue], _ key: String, in path: JSONPath) -> [String] {
    guard let value = object[key], !value.isNull else { return [] }
    if let elements = value.arrayValue {
      let strings = elements.compactMap(\.stringValue)
      if strings.count == elements.count { return strings }
    }
    report(path.appending(key), "must be an array of strings, not \(value.kind)", hint: "write \"\(key)\" : [\"new\", \"existing\", \"expired\"]")
    return []
  }
}
