import Foundation
import StoreEngine

/// Storefront's local certificate authority: a P-256 root, an intermediate and a leaf that signs
/// transactions, with the profile Apple's `SignedDataVerifier` accepts (Docs/SignedTransactions.md).
///
/// The first ``open(in:validFrom:lifetimes:regenerate:)`` creates the chain in a directory (mode 0700,
/// keys 0600); later ones load it. A damaged or partial directory is an error, never silently
/// replaced: pass `regenerate: true` (the CLI's `--regenerate-ca`) to start over.
public struct SandboxCertificateAuthority: Sendable {
  /// How long each certificate is valid, counted from `validFrom`.
  public struct Lifetimes: Sendable, Equatable {
    public var root: TimeInterval
    public var intermediate: TimeInterval
    public var leaf: TimeInterval

    public init(root: TimeInterval, intermediate: TimeInterval, leaf: TimeInterval) {
      self.root = root
      self.intermediate = intermediate
      self.leaf = leaf
    }

    /// 40, 35 and 30 years: long enough that accelerated subscription time never outruns the leaf.
    public static let standard = Lifetimes(root: 40 * year, intermediate: 35 * year, leaf: 30 * year)
    static let year: TimeInterval = 365.25 * 86_400
  }

  /// The export format of the root certificate.
  public enum CertificateFormat: Sendable {
    /// `-----BEGIN CERTIFICATE-----` text.
    case pem
    /// Raw DER bytes, what Apple's `SignedDataVerifier(root_certificates:)` takes.
    case der
  }

  /// File names inside the CA directory.
  public enum FileName {
    public static let rootCertificate = "root-ca.pem"
    public static let rootKey = "root-ca.key.pem"
    public static let intermediateCertificate = "intermediate-ca.pem"
    public static let intermediateKey = "intermediate-ca.key.pem"
    public static let leafCertificate = "signing.pem"
    public static let leafKey = "signing.key.pem"
    static let all = [rootCertificate, rootKey, intermediateCertificate, intermediateKey, leafCertificate, leafKey]
    static let keys: Set<String> = [rootKey, intermediateKey, leafKey]
  }

  public let directory: URL
  public let root: Certificate
  public let intermediate: Certificate
  public let leaf: Certificate
  /// True when this call created the chain (so the CLI can tell the user to export the root).
  public let wasCreated: Bool
  let leafKey: PrivateKey
  /// Issues the TLS server certificate (``tlsServerIdentity(now:)``).
  let rootKey: PrivateKey

  /// A sensible `validFrom` for a CA made at `now`: ten years back, so that transactions dated by
  /// a backdated virtual clock still fall inside every certificate's validity.
  public static func defaultValidFrom(now: Date) -> Date {
    now.addingTimeInterval(-10 * Lifetimes.year)
  }

  /// Opens the CA in `directory`, creating it when the directory has none of its files.
  ///
  /// - Parameters:
  ///   - storage: Where the chain is kept when not in `directory`'s files (a shared database);
  ///     `directory` still holds what stays local (serve's TLS certificate).
  ///   - validFrom: notBefore of a newly created chain (ignored when loading); inject it for determinism.
  ///   - regenerate: replace whatever is there with a new chain (the user's explicit say-so).
  /// - Throws: ``SandboxCAError`` for damaged, partial or unsafe directories; ``OpenSSLError``.
  public static func open(
    in directory: URL, storage: (any SecretStorage)? = nil, validFrom: Date, lifetimes: Lifetimes = .standard,
    regenerate: Bool = false
  ) throws -> SandboxCertificateAuthority {
    let local = try CADirectoryStorage(directory: directory)
    let storage = storage ?? local
    // Two first runs at once (the TUI and a script) must not interleave two generations' files.
    return try storage.withLock {
      let present = try storage.present(FileName.all)
      if regenerate || present.isEmpty {
        return try generate(in: directory, storage: storage, validFrom: validFrom, lifetimes: lifetimes)
      }
      let missing = FileName.all.filter { !present.contains($0) }
      guard missing.isEmpty else { throw SandboxCAError.incomplete(directory: storage.location, missing: missing) }
      return try load(from: directory, storage: storage)
    }
  }

  /// Loads the CA in `directory` without ever creating one: nil when the directory holds none of
  /// its files (for `storefront verify` without `--root`, where a new root could verify nothing).
  ///
  /// - Throws: ``SandboxCAError`` for damaged or partial directories; ``OpenSSLError``.
  public static func existing(in directory: URL, storage: (any SecretStorage)? = nil) throws -> SandboxCertificateAuthority? {
    let present =
      try storage?.present(FileName.all) ?? FileName.all.filter { CAFiles.exists(directory.appendingPathComponent($0)) }
    if present.isEmpty { return nil }
    return try open(in: directory, storage: storage, validFrom: Date(timeIntervalSince1970: 0))
  }

  /// The root certificate to give to a server's verifier.
  public func exportRoot(format: CertificateFormat) throws -> Data {
    switch format {
    case .pem: try root.pem()
    case .der: root.der
    }
  }

  /// The `x5c` chain, leaf first.
  public var chain: [Certificate] { [leaf, intermediate, root] }

  /// A signer that signs with the leaf key and puts the chain in `x5c`.
  public func signer(environment: String = "Sandbox") -> ES256Signer {
    ES256Signer(key: leafKey, chain: chain, environment: environment)
  }

  /// A verifier that trusts this CA's root.
  public func verifier(
    bundleID: String?, environment: String = "Sandbox", now: @escaping @Sendable () -> Date
  ) -> JWSVerifier {
    JWSVerifier(trustedRoots: [root], bundleID: bundleID, environment: environment, now: now)
  }

  // MARK: - Creating and loading

  private static func generate(
    in directory: URL, storage: any SecretStorage, validFrom: Date, lifetimes: Lifetimes
  ) throws -> SandboxCertificateAuthority {
    let start = Date(timeIntervalSince1970: validFrom.timeIntervalSince1970.rounded(.down))
    let organization = ("O", "Storefront local sandbox (not Apple)")
    let rootKey = try PrivateKey.generateP256()
    let root = try CertificateProfile(
      subject: [("CN", "Storefront Sandbox Root CA"), organization],
      notBefore: start, notAfter: start.addingTimeInterval(lifetimes.root),
      basicConstraints: "critical,CA:TRUE", keyUsage: "critical,keyCertSign,cRLSign"
    ).issue(for: rootKey, issuer: nil)

    let intermediateKey = try PrivateKey.generateP256()
    let intermediate = try CertificateProfile(
      subject: [("CN", "Storefront Sandbox Signing CA"), organization],
      notBefore: start, notAfter: start.addingTimeInterval(lifetimes.intermediate),
      basicConstraints: "critical,CA:TRUE,pathlen:0", keyUsage: "critical,keyCertSign,cRLSign",
      markerOIDs: [CertificateProfile.intermediateMarkerOID]
    ).issue(for: intermediateKey, issuer: (root, rootKey))

    let leafKey = try PrivateKey.generateP256()
    let leaf = try CertificateProfile(
      subject: [("CN", "Storefront Sandbox StoreKit Signing"), organization],
      notBefore: start, notAfter: start.addingTimeInterval(lifetimes.leaf),
      basicConstraints: "critical,CA:FALSE", keyUsage: "critical,digitalSignature",
      markerOIDs: [CertificateProfile.leafMarkerOID]
    ).issue(for: leafKey, issuer: (intermediate, intermediateKey))

    try storage.writeAll(
      [
        (FileName.rootCertificate, try root.pem()), (FileName.rootKey, try rootKey.pem()),
        (FileName.intermediateCertificate, try intermediate.pem()),
        (FileName.intermediateKey, try intermediateKey.pem()),
        (FileName.leafCertificate, try leaf.pem()), (FileName.leafKey, try leafKey.pem()),
      ], keys: FileName.keys)
    return SandboxCertificateAuthority(
      directory: directory, root: root, intermediate: intermediate, leaf: leaf, wasCreated: true,
      leafKey: leafKey, rootKey: rootKey)
  }

  private static func load(from directory: URL, storage: any SecretStorage) throws -> SandboxCertificateAuthority {
    // A storage's own errors (a lost database, a wrong key-encryption key) pass through as they are.
    func certificate(_ name: String) throws -> Certificate {
      let pem = try storage.read(name)
      do {
        return try Certificate(pem: pem)
      } catch {
        throw SandboxCAError.corrupt(file: storage.describe(name), reason: "it is not a PEM certificate")
      }
    }
    func key(_ name: String, for cert: Certificate, certName: String) throws -> PrivateKey {
      let key: PrivateKey
      let pem = try storage.read(name)
      do {
        key = try PrivateKey(pem: pem)
      } catch {
        throw SandboxCAError.corrupt(file: storage.describe(name), reason: "it is not a PEM private key")
      }
      guard cert.matches(key) else {
        throw SandboxCAError.corrupt(file: storage.describe(name), reason: "it is not the key of '\(certName)'")
      }
      return key
    }

    let root = try certificate(FileName.rootCertificate)
    let intermediate = try certificate(FileName.intermediateCertificate)
    let leaf = try certificate(FileName.leafCertificate)
    let rootKey = try key(FileName.rootKey, for: root, certName: FileName.rootCertificate)
    _ = try key(FileName.intermediateKey, for: intermediate, certName: FileName.intermediateCertificate)
    let leafKey = try key(FileName.leafKey, for: leaf, certName: FileName.leafCertificate)
    guard root.isSigned(by: root) else {
      throw SandboxCAError.corrupt(file: storage.describe(FileName.rootCertificate), reason: "it is not self-signed")
    }
    guard intermediate.isSigned(by: root) else {
      throw SandboxCAError.corrupt(
        file: storage.describe(FileName.intermediateCertificate), reason: "it was not issued by '\(FileName.rootCertificate)'")
    }
    guard leaf.isSigned(by: intermediate) else {
      throw SandboxCAError.corrupt(
        file: storage.describe(FileName.leafCertificate),
        reason: "it was not issued by '\(FileName.intermediateCertificate)'")
    }
    guard leafKey.isP256 else {
      throw SandboxCAError.corrupt(file: storage.describe(FileName.leafKey), reason: "it is not a P-256 key")
    }
    return SandboxCertificateAuthority(
      directory: directory, root: root, intermediate: intermediate, leaf: leaf, wasCreated: false,
      leafKey: leafKey, rootKey: rootKey)
  }
}
