import Foundation

/// The certificate and key `storefront serve --tls` answers HTTPS with: issued by the sandbox root
/// for Apple's App Store Server API and verifyReceipt host names, `localhost` and the loopback
/// addresses, so a backend reaches it by Apple's host name with a hosts entry and our root trusted.
public struct TLSServerIdentity: Sendable {
  /// File names inside the CA directory.
  public enum FileName {
    public static let certificate = "tls-server.pem"
    public static let key = "tls-server.key.pem"
  }

  /// The DNS names in the certificate: Apple's current and older (`itunes`) API hosts (reference §1.1),
  /// the verifyReceipt hosts (§6.1), the Swift library's `LocalTesting` host, and `localhost`.
  public static let hostNames = [
    "api.storekit.apple.com", "api.storekit-sandbox.apple.com",
    "api.storekit.itunes.apple.com", "api.storekit-sandbox.itunes.apple.com",
    "buy.itunes.apple.com", "sandbox.itunes.apple.com",
    "local-testing-base-url", "localhost",
  ]
  /// The IP addresses in the certificate.
  public static let ipAddresses = ["127.0.0.1", "::1"]

  /// 397 days, the longest TLS lifetime Apple's platforms accept from a public CA; clients that
  /// trust a private root do not care, and a year is still rarely long enough to need a re-issue.
  public static let lifetime: TimeInterval = 397 * 86_400
  /// A certificate with less than this left is re-issued, so a long-running server does not expire mid-run.
  public static let renewalMargin: TimeInterval = 30 * 86_400

  public let certificate: Certificate
  /// The certificate as PEM (the root is not included: clients must trust it, not be handed it).
  public let certificatePEM: Data
  /// The private key as PKCS#8 PEM, stored with mode 0600.
  public let keyPEM: Data
  /// `tls-server.pem` in the CA directory.
  public let certificateFile: URL
  /// The root a client must trust: `root-ca.pem` in the CA directory.
  public let rootCertificateFile: URL
  /// True when this call issued the certificate (it was missing, expiring, damaged or from an old root).
  public let wasIssued: Bool

  init(certificate: Certificate, keyPEM: Data, directory: URL, wasIssued: Bool) throws {
    self.certificate = certificate
    self.certificatePEM = try certificate.pem()
    self.keyPEM = keyPEM
    self.certificateFile = directory.appendingPathComponent(FileName.certificate)
    self.rootCertificateFile = directory.appendingPathComponent(SandboxCertificateAuthority.FileName.rootCertificate)
    self.wasIssued = wasIssued
  }

  /// Whether a stored certificate can be served at `now` under `root`: issued by it, matching `key`,
  /// valid with the renewal margin to spare, and naming every host and address.
  static func isUsable(_ certificate: Certificate, key: PrivateKey, root: Certificate, now: Date) -> Bool {
    certificate.isSigned(by: root) && certificate.matches(key) && certificate.notBefore <= now
      && now.addingTimeInterval(renewalMargin) < certificate.notAfter
      && hostNames.allSatisfy(certificate.matches(hostName:)) && ipAddresses.allSatisfy(certificate.matches(ipAddress:))
  }

  /// The profile of a TLS server certificate issued at `now`: `serverAuth`, `digitalSignature`, the names.
  static func profile(now: Date) -> CertificateProfile {
    let start = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down) - 86_400)
    let names = hostNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }
    return CertificateProfile(
      subject: [("CN", "api.storekit-sandbox.apple.com"), ("O", "Storefront local sandbox (not Apple)")],
      notBefore: start, notAfter: start.addingTimeInterval(lifetime),
      basicConstraints: "critical,CA:FALSE", keyUsage: "critical,digitalSignature", extendedKeyUsage: "serverAuth",
      subjectAltName: names.joined(separator: ","))
  }
}
