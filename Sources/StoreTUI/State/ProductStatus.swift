import Foundation
import StoreEngine

/// What the Store pane's status column says about one product for the signed-in account.
public enum ProductStatus: Equatable, Sendable {
  /// Nothing bought (or nothing to say).
  case none
  /// A payment for it is in the queue, waiting for the sheet, sign-in or the store.
  case purchasing
  /// Waiting for Ask to Buy approval.
  case deferred
  /// A non-consumable the account owns.
  case owned
  /// Consumable units bought so far (purchased and not refunded).
  case bought(Int)
  /// An auto-renewable subscription that renews at this date.
  case renews(Date)
  /// A subscription (auto-renew off, or non-renewing) that ends at this date.
  case expires(Date)
  case inGracePeriod
  case billingRetry
  case expired
  /// Its last purchase was refunded (revoked) and nothing else grants it.
  case refunded

  /// The text shown in the status column.
  public var text: String {
    switch self {
    case .none: ""
    case .purchasing: "purchasing…"
    case .deferred: "deferred (Ask to Buy)"
    case .owned: "owned"
    case .bought(let count): "bought ×\(count)"
    case .renews(let date): "renews \(DateText.short(date))"
    case .expires(let date): "expires \(DateText.short(date))"
    case .inGracePeriod: "in grace period"
    case .billingRetry: "billing retry"
    case .expired: "expired"
    case .refunded: "refunded"
    }
  }

  /// The colour role of the status text.
  public var role: ColorRole? {
    switch self {
    case .none: nil
    case .purchasing, .deferred, .inGracePeriod, .billingRetry: .warning
    case .owned, .bought, .renews: .success
    case .expires: .accent
    case .expired, .refunded: .muted
    }
  }

  /// The moment this status stops being true by itself (for re-deriving when the clock passes it).
  var deadline: Date? {
    switch self {
    case .expires(let date), .renews(let date): date
    default: nil
    }
  }

  /// The status of `kind` given the account's transactions for that product (ledger order) and
  /// the subscription chains currently on that product.
  ///
  /// A pure function of the ledger's view, so the reducer can re-derive exactly the rows an event
  /// touches. `consumableUnits`: the ledger's count of a consumable's units (nil: count
  /// `transactions`, which must then be the whole history).
  public static func derive(
    kind: ProductKind, transactions: [PaymentTransaction], subscriptions: [SubscriptionRecord],
    consumableUnits: Int? = nil, now: Date
  ) -> ProductStatus {
    let unfinished = transactions.filter { !$0.isFinished }
    if unfinished.contains(where: { $0.state == .purchasing }) { return .purchasing }
    if unfinished.contains(where: { $0.state == .deferred }) { return .deferred }
    let granted = transactions.filter {
      ($0.state == .purchased || $0.state == .restored) && $0.revocationDate == nil
    }
    let wasRefunded = transactions.contains { $0.revocationDate != nil }
    switch kind {
    case .consumable:
      let count = consumableUnits ?? granted.filter { $0.state == .purchased }.reduce(0) { $0 + $1.quantity }
      if count > 0 { return .bought(count) }
    case .nonConsumable:
      // B23: the original purchase grants; a copy of a refunded one does not.
      if granted.contains(where: { $0.id == $0.originalID }) { return .owned }
    case .nonRenewingSubscription:
      if let latest = granted.compactMap(\.expiresDate).max() {
        return latest > now ? .expires(latest) : .expired
      }
    case .autoRenewableSubscription:
      let active = subscriptions.first { $0.status != .expired && $0.status != .revoked }
      if let record = active ?? subscriptions.last {
        switch record.status {
        case .subscribed: return record.autoRenew ? .renews(record.expiresDate) : .expires(record.expiresDate)
        case .inGracePeriod: return .inGracePeriod
        case .inBillingRetry: return .billingRetry
        case .expired: return .expired
        case .revoked: return .refunded
        }
      }
      // An upgraded period ended when the upgrade began: StoreKit's entitlements leave it out, and
      // the chain renews as the new product's row says.
      if let latest = granted.filter({ !$0.isUpgraded }).compactMap(\.expiresDate).max() {
        return latest > now ? .renews(latest) : .expired
      }
    }
    return wasRefunded ? .refunded : .none
  }
}

/// Dates as the TUI shows them: UTC, minutes or seconds, independent of the host's time zone.
public enum DateText {
  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    return calendar
  }()

  /// `2026-02-01 00:00`.
  public static func short(_ date: Date) -> String {
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute))"
  }

  /// `2026-02-01 00:00:00 UTC`.
  public static func full(_ date: Date) -> String {
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) UTC"
  }

  private static func two(_ value: Int?) -> String {
    let number = value ?? 0
    return number < 10 ? "0\(number)" : String(number)
  }
}
