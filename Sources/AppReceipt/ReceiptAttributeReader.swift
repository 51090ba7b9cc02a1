import COpenSSL
import Foundation

/// Reads a DER SET OF ReceiptAttribute in place: OpenSSL's `ASN1_get_object` parses each
/// tag and length over the receipt's own bytes, so nothing is allocated per attribute. The `d2i_`
/// of `ASN1_SET_ANY`, `ASN1_SEQUENCE_ANY` and `ASN1_TYPE` it replaced allocated a stack, three
/// `ASN1_TYPE`s and their strings per attribute, and a `Data` copy of each: half of a 1,000-entry
/// verifyReceipt.
enum ReceiptAttributeReader {
  typealias Malformed = AppReceiptEncoding.Malformed
  typealias Bytes = UnsafeBufferPointer<UInt8>

  /// One tag-length-value: its universal tag (nil for other classes), whether constructed, its content.
  private struct Element {
    var tag: Int32?
    var constructed: Bool
    var content: Bytes
  }

  /// The attributes of `der`, which must be one SET and nothing after it.
  static func attributes(_ der: Data) throws(Malformed) -> [ReceiptAttribute] {
    let result: Result<[ReceiptAttribute], Malformed> = der.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      do throws(Malformed) { return .success(try attributes(bytes)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  private static func attributes(_ der: Bytes) throws(Malformed) -> [ReceiptAttribute] {
    guard let (set, consumed) = element(der), set.tag == V_ASN1_SET, set.constructed else {
      throw Malformed(description: "not DER of the expected type")
    }
    guard consumed == der.count else { throw Malformed(description: "\(der.count - consumed) bytes after the value") }
    var result: [ReceiptAttribute] = []
    var rest = set.content
    var index = 0
    while !rest.isEmpty {
      guard let (sequence, used) = element(rest) else { throw Malformed(description: "not DER of the expected type") }
      guard sequence.tag == V_ASN1_SEQUENCE, sequence.constructed else {
        throw Malformed(description: "attribute \(index) is not a SEQUENCE")
      }
      result.append(try attribute(sequence.content))
      rest = Bytes(rebasing: rest[used...])
      index += 1
    }
    return result
  }

  private static func attribute(_ fields: Bytes) throws(Malformed) -> ReceiptAttribute {
    let shape = Malformed(description: "an attribute is not SEQUENCE { INTEGER, INTEGER, OCTET STRING }")
    guard let (typeField, first) = element(fields), typeField.tag == V_ASN1_INTEGER, !typeField.constructed else { throw shape }
    let afterType = Bytes(rebasing: fields[first...])
    guard let (versionField, second) = element(afterType), versionField.tag == V_ASN1_INTEGER, !versionField.constructed else {
      throw shape
    }
    let afterVersion = Bytes(rebasing: afterType[second...])
    guard let (valueField, third) = element(afterVersion), valueField.tag == V_ASN1_OCTET_STRING, !valueField.constructed,
      third == afterVersion.count
    else { throw shape }
    let type = Int(try integer(typeField.content))
    let version = Int(try integer(versionField.content))
    return ReceiptAttribute(type, try value(valueField.content, type: type), version: version)
  }

  private static func value(_ content: Bytes, type: Int) throws(Malformed) -> ReceiptAttribute.Value {
    if ReceiptAttributeType.rawBytes.contains(type) || content.isEmpty { return .bytes(Data(content)) }
    if type == ReceiptAttributeType.inAppPurchase { return .set(try attributes(content)) }
    // Anything else is one DER value that fills the OCTET STRING; what is not stays raw bytes.
    guard let (inner, used) = element(content), used == content.count, !inner.constructed else { return .bytes(Data(content)) }
    switch inner.tag {
    case V_ASN1_INTEGER:
      return .integer(try integer(inner.content))
    case V_ASN1_UTF8STRING:
      return .utf8(String(decoding: inner.content, as: UTF8.self))
    case V_ASN1_IA5STRING:
      let text = String(decoding: inner.content, as: UTF8.self)
      return ReceiptDate.parse(text).map(ReceiptAttribute.Value.date) ?? .utf8(text)
    default:
      return .bytes(Data(content))
    }
  }

  /// A two's-complement INTEGER's content as a number.
  private static func integer(_ content: Bytes) throws(Malformed) -> Int64 {
    guard (1...8).contains(content.count) else { throw Malformed(description: "an INTEGER does not fit 64 bits") }
    var number: Int64 = content[0] & 0x80 != 0 ? -1 : 0
    for byte in content { number = number << 8 | Int64(byte) }
    return number
  }

  /// The element at the start of `bytes` and how many bytes it takes; nil unless it is DER with a
  /// definite length inside `bytes`.
  private static func element(_ bytes: Bytes) -> (Element, Int)? {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
    var cursor: UnsafePointer<UInt8>? = base
    var length = 0
    var tag: Int32 = 0
    var tagClass: Int32 = 0
    let info = ASN1_get_object(&cursor, &length, &tag, &tagClass, bytes.count)
    guard info & 0x80 == 0, info & 0x01 == 0, let start = cursor else {
      ERR_clear_error()
      return nil
    }
    let header = start - base
    guard length >= 0, header + length <= bytes.count else { return nil }
    let element = Element(
      tag: tagClass == V_ASN1_UNIVERSAL ? tag : nil, constructed: info & V_ASN1_CONSTRUCTED != 0,
      content: Bytes(start: start, count: length))
    return (element, header + length)
  }
}
