import Foundation
internal import StoreEngine
internal import StoreScenario

extension Product.SubscriptionInfo {
  /// One subscription chain's status.
  public struct Status: Equatable, Hashable, Sendable {
    /// Where the chain stands now.
    public let state: RenewalState
    /// The chain's latest transaction.
    public let transaction: VerificationResult<Transaction>
    /// The renewal info the store last signed for the chain.
    public let renewalInfo: VerificationResult<RenewalInfo>

    /// Every status change of the account's subscriptions from now on (a renewal, an expiry, a
    /// refund, a change of renewal preference): make it before the action it should see.
    public static var updates: Statuses { Statuses(stream: StoreKitEnvironment.shared.addStatusListener()) }

    /// The statuses of each subscription group the account has subscribed to, one element per
    /// group, then the sequence ends.
    public static var all: AsyncStream<(groupID: String, statuses: [Product.SubscriptionInfo.Status])> {
      let groups = StoreKitEnvironment.shared.allStatuses()
      return AsyncStream { continuation in
        for group in groups { continuation.yield(group) }
        continuation.finish()
      }
    }

    /// An asynchronous sequence of subscription statuses.
    public struct Statuses: AsyncSequence, Sendable {
      public typealias Element = Product.SubscriptionInfo.Status
      let stream: AsyncStream<Element>

      public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.AsyncIterator
        public mutating func next() async -> Element? { await base.next() }
      }

      public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
    }
  }

  /// The renewal state of a subscription, with Apple's raw values.
  public struct RenewalState: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let subscribed = RenewalState(rawValue: 1)
    public static let expired = RenewalState(rawValue: 2)
    public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
    public static let inGracePeriod = RenewalState(rawValue: 4)
    public static let revoked = RenewalState(rawValue: 5)

    init(_ status: StoreEngine.SubscriptionStatus) {
      switch status {
      case .subscribed: self = .subscribed
      case .expired: self = .expired
      case .inBillingRetry: self = .inBillingRetryPeriod
      case .inGracePeriod: self = .inGracePeriod
      case .revoked: self = .revoked
      }
    }

    public var description: String {
      switch self {
      case .subscribed: "subscribed"
      case .expired: "expired"
      case .inBillingRetryPeriod: "inBillingRetryPeriod"
      case .inGracePeriod: "inGracePeriod"
      case .revoked: "revoked"
      default: "RenewalState(\(rawValue))"
      }
    }

    /// For the user: the subscription's state.
    public var localizedDescription: String {
      switch self {
      case .subscribed: "Subscribed"
      case .expired: "Expired"
      case .inBillingRetryPeriod: "Billing Retry"
      case .inGracePeriod: "Grace Period"
      case .revoked: "Revoked"
      default: "Unknown"
      }
    }
  }
}

extension StoreKitEnvironment {
  /// Throws the simulated `subscriptionStatus` failure, if one is set.
  private func checkStatusFailure() throws {
    let failure: SimulatedFailure?
    do { failure = try read { $0.queue.controls.failures[.subscriptionStatus] } } catch { throw StoreKitError.unknown }
    if let failure { throw Self.storeKit2Error(failure.error) }
  }

  func subscriptionStatuses(group: String) throws -> [Product.SubscriptionInfo.Status] {
    try checkStatusFailure()
    do {
      return try read { store in try statuses(group: group, in: store) }
    } catch {
      report("reading the subscription status failed: \(describe(error))")
      throw StoreKitError.unknown
    }
  }

  func subscriptionStatus(transactionID: UInt64) throws -> Product.SubscriptionInfo.Status? {
    try checkStatusFailure()
    do {
      return try read { store in
        guard let transaction = try store.queue.transaction(StoreEngine.PaymentTransaction.ID(transactionID)),
          transaction.account == store.queue.currentAccount,
          transaction.productKind == .autoRenewableSubscription, let group = transaction.subscriptionGroupID
        else { return nil }
        return try statuses(group: group, in: store).first { $0.transaction.unsafePayloadValue.originalID == transaction.originalID.rawValue }
      }
    } catch {
      report("reading the subscription status failed: \(describe(error))")
      throw StoreKitError.unknown
    }
  }

  /// Each group the account has a subscription in, with its statuses (groups in catalog order).
  func allStatuses() -> [(groupID: String, statuses: [Product.SubscriptionInfo.Status])] {
    (try? read { store in
      let groups = Set(store.queue.subscriptions().map(\.groupID))
      return try store.queue.catalog.subscriptionGroups.map(\.id).filter(groups.contains).map { group in
        (groupID: group, statuses: try statuses(group: group, in: store))
      }
    }) ?? []
  }

  /// The statuses of `group` (lock held), from the present: a live chain's latest period is in the
  /// working set; an ended chain's comes from one indexed read of the ledger. No whole-history read.
  func statuses(group: String, in store: OpenStore) throws -> [Product.SubscriptionInfo.Status] {
    let entries = StoreKit2Queries.statuses(
      group: group, history: store.queue.presentTransactions(), subscriptions: store.queue.subscriptions())
    return try entries.compactMap { entry in
      let live = entry.record.status != .expired && entry.record.status != .revoked
      guard
        let transaction = live
          ? entry.transaction
          : try store.queue.latestTransaction(matching: TransactionMatch(originalID: entry.record.originalID, state: .purchased))
      else { return nil }
      return status(of: entry.record, transaction: transaction, in: store)
    }
  }

  /// One chain's status from its record and latest transaction (lock held).
  func status(
    of record: SubscriptionRecord, transaction: StoreEngine.PaymentTransaction, in store: OpenStore
  ) -> Product.SubscriptionInfo.Status {
    let info = Product.SubscriptionInfo.RenewalInfo(record, bundleID: store.configuration.bundleID)
    let verifiedInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
    if info.jws.isEmpty {
      verifiedInfo = .unverified(info, .missingRequiredProperties)
    } else if (try? store.verifier().verify(info.jws)) != nil {
      verifiedInfo = .verified(info)
    } else {
      verifiedInfo = .unverified(info, .invalidSignature)
    }
    return Product.SubscriptionInfo.Status(
      state: .init(record.status), transaction: verification(of: transaction, in: store), renewalInfo: verifiedInfo)
  }
}
