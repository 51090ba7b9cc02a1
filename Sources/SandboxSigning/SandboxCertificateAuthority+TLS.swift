import Foundation

extension SandboxCertificateAuthority {
  /// The TLS server certificate and key in the CA directory, issued by the root the first time and
  /// reused after; issued again when a file is missing or damaged, the certificate expires within
  /// ``TLSServerIdentity/renewalMargin`` of `now`, lacks a name, or comes from an older root.
  ///
  /// Unlike the CA itself this never needs the user's say-so: nothing signed depends on it.
  /// - Throws: ``SandboxCAError`` when the files cannot be written; ``OpenSSLError``.
  public func tlsServerIdentity(now: Date) throws -> TLSServerIdentity {
    try CAFiles.withLock(in: directory) {
      let certificateURL = directory.appendingPathComponent(TLSServerIdentity.FileName.certificate)
      let keyURL = directory.appendingPathComponent(TLSServerIdentity.FileName.key)
      if CAFiles.exists(certificateURL), CAFiles.exists(keyURL) {
        try CAFiles.tightenKeyPermissions(keyURL)
        if let certificate = try? Certificate(pem: CAFiles.read(certificateURL)), let keyPEM = try? CAFiles.read(keyURL),
          let key = try? PrivateKey(pem: keyPEM), TLSServerIdentity.isUsable(certificate, key: key, root: root, now: now)
        {
          return try TLSServerIdentity(certificate: certificate, keyPEM: keyPEM, directory: directory, wasIssued: false)
        }
      }
      let key = try PrivateKey.generateP256()
      let certificate = try TLSServerIdentity.profile(now: now).issue(for: key, issuer: (root, rootKey))
      let keyPEM = try key.pem()
      try CAFiles.writeAll(
        [(TLSServerIdentity.FileName.certificate, try certificate.pem()), (TLSServerIdentity.FileName.key, keyPEM)],
        in: directory, keyFiles: [TLSServerIdentity.FileName.key])
      return try TLSServerIdentity(certificate: certificate, keyPEM: keyPEM, directory: directory, wasIssued: true)
    }
  }
}
