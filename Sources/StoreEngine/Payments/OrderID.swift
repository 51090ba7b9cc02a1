import Foundation

/// The order id of a charge, as Apple's e-mail receipt shows it ("MK5TTTVWJH") and as the App Store
/// Server API's Look Up Order ID takes it.
///
/// Derived from the transaction id, never stored: a bijection, so every process agrees and an order id
/// decodes back to its transaction without a scan. Ids below 36¹⁰ (all the engine hands out) give ten
/// characters of `0-9A-Z`, scrambled by an affine map modulo 36¹⁰ so that consecutive purchases do not
/// get consecutive order ids; larger ids give thirteen characters, unscrambled.
public enum OrderID {
  /// The order id of transaction `id`.
  public static func make(for id: PaymentTransaction.ID) -> String {
    let value = id.rawValue
    guard value < modulus else { return encode(value, width: 13) }
    return encode(affine(value, multiplier: multiplier, offset: offset), width: 10)
  }

  /// The transaction an order id stands for, or nil when `orderID` is not one this store makes.
  public static func transactionID(of orderID: String) -> PaymentTransaction.ID? {
    switch orderID.utf8.count {
    case 10:
      guard let scrambled = decode(orderID), scrambled < modulus else { return nil }
      // Undo `x·k + c`: subtract c modulo m, then multiply by k⁻¹.
      let shifted = scrambled >= offset ? scrambled - offset : scrambled + (modulus - offset)
      return PaymentTransaction.ID(affine(shifted, multiplier: inverse, offset: 0))
    case 13:
      guard let value = decode(orderID), value >= modulus else { return nil }
      return PaymentTransaction.ID(value)
    default:
      return nil
    }
  }

  private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
  /// 36¹⁰.
  private static let modulus: UInt64 = 3_656_158_440_062_976
  /// Coprime to 36, so the map is a bijection; `inverse` is its inverse modulo 36¹⁰.
  private static let multiplier: UInt64 = 2_654_443_724_307_287
  private static let inverse: UInt64 = 1_291_858_000_322_663
  private static let offset: UInt64 = 1_234_567_890_123

  /// `(x·k + c) mod 36¹⁰` without overflow (x, k, c below the modulus).
  private static func affine(_ x: UInt64, multiplier k: UInt64, offset c: UInt64) -> UInt64 {
    let product = x.multipliedFullWidth(by: k)
    let remainder = modulus.dividingFullWidth((high: product.high, low: product.low)).remainder
    let sum = remainder.addingReportingOverflow(c).partialValue
    return sum >= modulus ? sum - modulus : sum
  }

  private static func encode(_ value: UInt64, width: Int) -> String {
    var digits: [UInt8] = []
    var rest = value
    while rest > 0 {
      digits.append(alphabet[Int(rest % 36)])
      rest /= 36
    }
    while digits.count < width { digits.append(alphabet[0]) }
    return String(decoding: digits.reversed(), as: UTF8.self)
  }

  private static func decode(_ text: String) -> UInt64? {
    var value: UInt64 = 0
    for byte in text.utf8 {
      guard let digit = alphabet.firstIndex(of: byte) else { return nil }
      let (times, overflow) = value.multipliedReportingOverflow(by: 36)
      let (sum, carry) = times.addingReportingOverflow(UInt64(digit))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return value
  }
}

extension PaymentTransaction {
  /// The order id of the charge this transaction is (what Apple's e-mail receipt shows): a purchase,
  /// an upgrade or a renewal; nil for what is not one (a restore, a free re-download, a family
  /// member's copy, a purchase not completed).
  public var orderID: String? {
    guard self.state == .purchased, self.familySharedBy == nil, self.reason == .renewal || self.originalID == id || self.price != 0 else {
      return nil
    }
    return OrderID.make(for: id)
  }
}
