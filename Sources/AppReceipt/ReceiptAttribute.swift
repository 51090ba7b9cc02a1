import Foundation

/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` of an
/// app receipt, with the value as what the OCTET STRING holds (Apple's receipt ASN.1).
public struct ReceiptAttribute: Sendable, Equatable {
  /// What the attribute's OCTET STRING contains.
  public enum Value: Sendable, Equatable {
    /// A DER UTF8String (bundle id, product id, transaction ids, versions).
    case utf8(String)
    /// A DER IA5String holding an RFC 3339 date, as Apple writes dates (`2026-01-01T00:00:00Z`).
    case date(Date)
    /// A DER INTEGER (quantity, web order line item id, flags).
    case integer(Int64)
    /// Raw octets, not ASN.1 (the opaque value and the SHA-1 hash).
    case bytes(Data)
    /// A DER SET OF ReceiptAttribute (an in-app purchase receipt, type 17).
    case set([ReceiptAttribute])
  }

  /// The attribute type (``ReceiptAttributeType``).
  public var type: Int
  /// Apple writes 1 for the documented types; clients ignore it.
  public var version: Int
  public var value: Value

  public init(_ type: Int, _ value: Value, version: Int = 1) {
    self.type = type
    self.version = version
    self.value = value
  }
}

extension ReceiptAttribute.Value {
  /// The string of a `.utf8` value, nil for others.
  public var string: String? {
    if case .utf8(let text) = self { return text }
    return nil
  }

  /// The date of a `.date` value, nil for others.
  public var date: Date? {
    if case .date(let date) = self { return date }
    return nil
  }

  /// The number of an `.integer` value, nil for others.
  public var integer: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }
}

extension Array where Element == ReceiptAttribute {
  /// The value of the first attribute of `type`.
  public func value(_ type: Int) -> ReceiptAttribute.Value? { first { $0.type == type }?.value }
}
