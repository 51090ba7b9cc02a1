import COpenSSL
import Foundation

/// Apple's receipt ASN.1 with OpenSSL's own encoder: each attribute is an `ASN1_SEQUENCE_ANY` of
/// INTEGER, INTEGER, OCTET STRING, and a set of them an `ASN1_SET_ANY` (`i2d_ASN1_SET_ANY`, which
/// sorts a DER SET OF); the values inside the OCTET STRINGs are `i2d_ASN1_UTF8STRING`,
/// `i2d_ASN1_IA5STRING` and `i2d_ASN1_INTEGER`. Decoding is the `d2i_` of the same types.
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

  /// The attributes of a DER SET OF ReceiptAttribute.
  public static func attributes(_ der: Data) throws(Malformed) -> [ReceiptAttribute] {
    let set = try parse(der, free: sf_sk_ASN1_TYPE_pop_free) { pointer, length in d2i_ASN1_SET_ANY(nil, pointer, length) }
    defer { sf_sk_ASN1_TYPE_pop_free(set) }
    var result: [ReceiptAttribute] = []
    result.reserveCapacity(Int(sf_sk_ASN1_TYPE_num(set)))
    for index in 0..<sf_sk_ASN1_TYPE_num(set) {
      guard let element = sf_sk_ASN1_TYPE_value(set, index), ASN1_TYPE_get(element) == V_ASN1_SEQUENCE,
        let encoded = element.pointee.value.sequence
      else { throw Malformed(description: "attribute \(index) is not a SEQUENCE") }
      result.append(try decodeAttribute(bytes(of: encoded)))
    }
    return result
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

  // MARK: - Decoding

  private static func decodeAttribute(_ der: Data) throws(Malformed) -> ReceiptAttribute {
    let sequence = try parse(der, free: sf_sk_ASN1_TYPE_pop_free) { pointer, length in d2i_ASN1_SEQUENCE_ANY(nil, pointer, length) }
    defer { sf_sk_ASN1_TYPE_pop_free(sequence) }
    guard sf_sk_ASN1_TYPE_num(sequence) == 3, let typeField = sf_sk_ASN1_TYPE_value(sequence, 0),
      let versionField = sf_sk_ASN1_TYPE_value(sequence, 1), let valueField = sf_sk_ASN1_TYPE_value(sequence, 2),
      ASN1_TYPE_get(typeField) == V_ASN1_INTEGER, ASN1_TYPE_get(versionField) == V_ASN1_INTEGER,
      ASN1_TYPE_get(valueField) == V_ASN1_OCTET_STRING, let octets = valueField.pointee.value.octet_string
    else { throw Malformed(description: "an attribute is not SEQUENCE { INTEGER, INTEGER, OCTET STRING }") }
    let type = try integer(typeField.pointee.value.integer)
    let version = try integer(versionField.pointee.value.integer)
    let content = bytes(of: octets)
    return ReceiptAttribute(Int(type), try decodeValue(content, type: Int(type)), version: Int(version))
  }

  private static func decodeValue(_ content: Data, type: Int) throws(Malformed) -> ReceiptAttribute.Value {
    if ReceiptAttributeType.rawBytes.contains(type) || content.isEmpty { return .bytes(content) }
    if type == ReceiptAttributeType.inAppPurchase { return .set(try attributes(content)) }
    // Anything else is one DER value that fills the OCTET STRING; what is not stays raw bytes.
    guard let any = try? parse(content, free: ASN1_TYPE_free, { pointer, length in d2i_ASN1_TYPE(nil, pointer, length) }) else {
      return .bytes(content)
    }
    defer { ASN1_TYPE_free(any) }
    switch ASN1_TYPE_get(any) {
    case V_ASN1_INTEGER:
      return .integer(try integer(any.pointee.value.integer))
    case V_ASN1_UTF8STRING:
      return .utf8(String(decoding: bytes(of: any.pointee.value.utf8string), as: UTF8.self))
    case V_ASN1_IA5STRING:
      let text = String(decoding: bytes(of: any.pointee.value.ia5string), as: UTF8.self)
      return ReceiptDate.parse(text).map(ReceiptAttribute.Value.date) ?? .utf8(text)
    default:
      return .bytes(content)
    }
  }

  private static func integer(_ value: UnsafeMutablePointer<ASN1_STRING>?) throws(Malformed) -> Int64 {
    var number: Int64 = 0
    guard let value, ASN1_INTEGER_get_int64(&number, value) == 1 else { throw Malformed(description: "an INTEGER does not fit 64 bits") }
    return number
  }

  private static func bytes(of string: UnsafeMutablePointer<ASN1_STRING>?) -> Data {
    guard let string, let start = ASN1_STRING_get0_data(string) else { return Data() }
    return Data(bytes: start, count: Int(ASN1_STRING_length(string)))
  }

  /// Runs a `d2i_…` call over all of `der`; trailing bytes are malformed too.
  private static func parse<Result>(
    _ der: Data, free: (Result) -> Void, _ decode: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> Result?
  ) throws(Malformed) -> Result {
    let parsed: (Result, Int)? = der.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      var cursor: UnsafePointer<UInt8>? = base
      guard let value = decode(&cursor, raw.count), let end = cursor else { return nil }
      return (value, end - base)
    }
    guard let (value, consumed) = parsed else { throw Malformed(description: "not DER of the expected type") }
    guard consumed == der.count else {
      free(value)
      throw Malformed(description: "\(der.count - consumed) bytes after the value")
    }
    return value
  }
}
