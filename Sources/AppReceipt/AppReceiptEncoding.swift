import COpenSSL
import Foundation

/// Apple's receipt ASN.1 with OpenSSL's own encoder: each attribute is an `ASN1_SEQUENCE_ANY` of
/// INTEGER, INTEGER, OCTET STRING, and a set of them an `ASN1_SET_ANY` (`i2d_ASN1_SET_ANY`, which
/// sorts a DER SET OF); the values inside the OCTET STRINGs are `i2d_ASN1_UTF8STRING`,
/// `i2d_ASN1_IA5STRING` and `i2d_ASN1_INTEGER`. Decoding walks the DER with OpenSSL's
/// `ASN1_get_object` (``ReceiptAttributeReader``).
public enum AppReceiptEncoding {
  /// Why a payload is not a receipt.
  public struct Malformed: Error, CustomStringConvertible {
    public var description: String
  }

  /// The DER SET OF ReceiptAttribute.
  public static func der(_ attributes: [ReceiptAttribute]) throws(Malformed) -> Data {
    guard let set = sf_sk_ASN1_TYPE_new_null() else { throw Malformed(description: "OpenSSL could not allocate a set") }
    defer { sf_sk_ASN1_TYPE_pop_free(set) }
    for attribute in attributes {
      let sequence = try encodeAttribute(attribute)
      try push(sequence, tag: V_ASN1_SEQUENCE, to: set)
    }
    return try serialize { i2d_ASN1_SET_ANY(set, $0) }
  }

  /// The attributes of a DER SET OF ReceiptAttribute (``ReceiptAttributeReader``).
  public static func attributes(_ der: Data) throws(Malformed) -> [ReceiptAttribute] {
    try ReceiptAttributeReader.attributes(der)
  }

  // MARK: - Encoding

  private static func encodeAttribute(_ attribute: ReceiptAttribute) throws(Malformed) -> Data {
    guard let sequence = sf_sk_ASN1_TYPE_new_null() else { throw Malformed(description: "OpenSSL could not allocate a sequence") }
    defer { sf_sk_ASN1_TYPE_pop_free(sequence) }
    try pushInteger(Int64(attribute.type), to: sequence)
    try pushInteger(Int64(attribute.version), to: sequence)
    let content = try encodeValue(attribute.value)
    guard let octets = ASN1_OCTET_STRING_new() else { throw Malformed(description: "OpenSSL could not allocate an OCTET STRING") }
    let stored = content.withUnsafeBytes { raw in
      ASN1_OCTET_STRING_set(octets, raw.bindMemory(to: UInt8.self).baseAddress, Int32(raw.count))
    }
    guard stored == 1, let type = ASN1_TYPE_new() else {
      ASN1_OCTET_STRING_free(octets)
      throw Malformed(description: "OpenSSL could not fill an OCTET STRING")
    }
    ASN1_TYPE_set(type, V_ASN1_OCTET_STRING, UnsafeMutableRawPointer(octets))
    guard sf_sk_ASN1_TYPE_push(sequence, type) > 0 else {
      ASN1_TYPE_free(type)
      throw Malformed(description: "OpenSSL could not grow a sequence")
    }
    return try serialize { i2d_ASN1_SEQUENCE_ANY(sequence, $0) }
  }

  /// The bytes an attribute's OCTET STRING holds for `value`.
  public static func value(_ value: ReceiptAttribute.Value) throws(Malformed) -> Data { try encodeValue(value) }

  private static func encodeValue(_ value: ReceiptAttribute.Value) throws(Malformed) -> Data {
    switch value {
    case .bytes(let data):
      return data
    case .set(let inner):
      return try der(inner)
    case .integer(let number):
      guard let integer = ASN1_INTEGER_new() else { throw Malformed(description: "OpenSSL could not allocate an INTEGER") }
      defer { ASN1_INTEGER_free(integer) }
      guard ASN1_INTEGER_set_int64(integer, number) == 1 else { throw Malformed(description: "OpenSSL could not set \(number)") }
      return try serialize { i2d_ASN1_INTEGER(integer, $0) }
    case .utf8(let text):
      guard let string = ASN1_UTF8STRING_new() else { throw Malformed(description: "OpenSSL could not allocate a UTF8String") }
      defer { ASN1_UTF8STRING_free(string) }
      try set(string, text)
      return try serialize { i2d_ASN1_UTF8STRING(string, $0) }
    case .date(let date):
      guard let string = ASN1_IA5STRING_new() else { throw Malformed(description: "OpenSSL could not allocate an IA5String") }
      defer { ASN1_IA5STRING_free(string) }
      try set(string, ReceiptDate.rfc3339(date))
      return try serialize { i2d_ASN1_IA5STRING(string, $0) }
    }
  }

  private static func set(_ string: UnsafeMutablePointer<ASN1_STRING>, _ text: String) throws(Malformed) {
    let bytes = Array(text.utf8)
    guard ASN1_STRING_set(string, bytes, Int32(bytes.count)) == 1 else { throw Malformed(description: "OpenSSL could not set '\(text)'") }
  }

  private static func pushInteger(_ number: Int64, to stack: OpaquePointer) throws(Malformed) {
    guard let integer = ASN1_INTEGER_new(), ASN1_INTEGER_set_int64(integer, number) == 1, let type = ASN1_TYPE_new() else {
      throw Malformed(description: "OpenSSL could not make INTEGER \(number)")
    }
    ASN1_TYPE_set(type, V_ASN1_INTEGER, UnsafeMutableRawPointer(integer))
    guard sf_sk_ASN1_TYPE_push(stack, type) > 0 else {
      ASN1_TYPE_free(type)
      throw Malformed(description: "OpenSSL could not grow a sequence")
    }
  }

  /// Adds an already encoded constructed value (a SEQUENCE's full DER) to `stack` as ANY.
  private static func push(_ encoded: Data, tag: Int32, to stack: OpaquePointer) throws(Malformed) {
    guard let string = ASN1_STRING_type_new(tag), let type = ASN1_TYPE_new() else {
      throw Malformed(description: "OpenSSL could not allocate an ANY")
    }
    let stored = encoded.withUnsafeBytes { raw in ASN1_STRING_set(string, raw.baseAddress, Int32(raw.count)) }
    ASN1_TYPE_set(type, tag, UnsafeMutableRawPointer(string))
    guard stored == 1, sf_sk_ASN1_TYPE_push(stack, type) > 0 else {
      ASN1_TYPE_free(type)
      throw Malformed(description: "OpenSSL could not grow a set")
    }
  }

  /// Runs an `i2d_…` call twice (length, then bytes), OpenSSL's usual way.
  private static func serialize(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) throws(Malformed) -> Data {
    let length = encode(nil)
    guard length > 0 else { throw Malformed(description: "OpenSSL could not encode a value") }
    var data = Data(count: Int(length))
    let written = data.withUnsafeMutableBytes { raw -> Int32 in
      var cursor = raw.bindMemory(to: UInt8.self).baseAddress
      return encode(&cursor)
    }
    guard written == length else { throw Malformed(description: "OpenSSL encoded a value inconsistently") }
    return data
  }
}
