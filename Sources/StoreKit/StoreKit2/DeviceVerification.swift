import Foundation
internal import SandboxSigning

/// A signed value's device verification, for this simulated device: Apple signs
/// `SHA384(nonce + deviceVerificationID)` (lower-case UUID strings) so an app can tell a JWS was
/// issued to this device. The store signs no device, so each value is bound here: the nonce is
/// derived from the JWS's signature (stable, different per signed value) and hashed with
/// ``AppStore/deviceVerificationID``.
struct DeviceVerification {
  var nonce: UUID
  var hash: Data

  /// This process is one device: one id for its lifetime, as a device keeps its id per vendor.
  static let deviceID = UUID()

  init(jws: String) {
    let signature = jws.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    var bytes = [UInt8](SHA384.hash(Data(("nonce." + signature).utf8)).prefix(16))
    if bytes.count < 16 { bytes = [UInt8](repeating: 0, count: 16) }
    // A version 4 UUID's layout (variant and version bits), so it prints like Apple's nonces.
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    nonce = UUID(uuid: (
      bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
      bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    hash = Self.hash(nonce: nonce, deviceID: Self.deviceID)
  }

  /// What Apple documents: SHA-384 of the nonce's string followed by the device id's, both lower-case.
  static func hash(nonce: UUID, deviceID: UUID) -> Data {
    SHA384.hash(Data((nonce.uuidString.lowercased() + deviceID.uuidString.lowercased()).utf8))
  }
}
