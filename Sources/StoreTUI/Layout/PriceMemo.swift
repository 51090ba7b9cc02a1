import Foundation
import StoreEngine

/// Formatted prices, remembered: a catalog has few distinct prices, and ICU formatting is the
/// costliest part of drawing a product row.
///
/// Whoever draws frames owns one and passes it to ``render(_:prices:)``: ``AppRuntime`` keeps one
/// for its lifetime, so a price is formatted once per run. Bounded (it starts over when full), so a
/// catalog with many distinct prices cannot grow it without end. Safe to share between threads.
///
/// ```swift
/// let prices = PriceMemo()
/// prices.format(Decimal(string: "0.99") ?? 0, currency: "EUR", locale: "de_DE")  // "0,99 €"
/// ```
public final class PriceMemo: Sendable {
  /// How many prices a memo remembers unless told otherwise.
  public static let defaultCapacity = 4096

  /// How many prices it remembers before it starts over.
  public let capacity: Int
  private let entries = Locked<[Entry: String]>([:])

  private struct Entry: Hashable {
    var amount: Decimal
    var currency: String
    var locale: String
  }

  /// An empty memo that remembers up to `capacity` prices (at least one).
  public init(capacity: Int = PriceMemo.defaultCapacity) {
    self.capacity = max(1, capacity)
  }

  /// ``formatPrice(_:currency:locale:)``, remembered.
  public func format(_ amount: Decimal, currency: String, locale: String) -> String {
    let entry = Entry(amount: amount, currency: currency, locale: locale)
    if let known = entries.withLock({ $0[entry] }) { return known }
    let text = formatPrice(amount, currency: currency, locale: locale)
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[entry] = text
    }
    return text
  }

  /// How many prices it remembers now.
  public var count: Int { entries.withLock { $0.count } }
}
