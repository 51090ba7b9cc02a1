import Foundation
import SandboxSigning
import SharedLedgerSecrets
import StoreServer

/// `serve`'s connection limits and `--tls`: the server's configuration from the command line and the CA.
extension ServeCommand {
  static let connectionOptions = [
    OptionSpec("--tls", help: "Serve HTTPS with a certificate the data directory's sandbox CA issues for Apple's API host names."),
    OptionSpec("--connection-timeout", value: "seconds", help: "Close a connection idle or stalled this long (default 30)."),
    OptionSpec("--connection-limit", value: "count", help: "Answer 429 on connections past this many open at once (default 64)."),
  ]

  /// The configuration for `address` with the limits given; a usage error's exit code when one is invalid.
  static func configuration(_ invocation: Invocation, address: ListenAddress) -> Result<HTTPServerConfiguration, CLIFailure> {
    var configuration = HTTPServerConfiguration(address: address)
    for (option, range) in [("--connection-timeout", 1...86_400), ("--connection-limit", 1...10_000)] {
      guard let text = invocation.arguments.value(option) else { continue }
      guard let value = Int(text), range.contains(value) else {
        let message = "The value '\(text)' is invalid for '\(option)': use a whole number from \(range.lowerBound) to \(range.upperBound)."
        return .failure(invocation.usageError(message, for: descriptor))
      }
      if option == "--connection-timeout" { configuration.connectionTimeout = value } else { configuration.connectionLimit = value }
    }
    return .success(configuration)
  }

  /// The TLS certificate and key from the data directory's CA (made on first use, re-issued when due);
  /// a wrong key-encryption key is a configuration error (78), anything else 73.
  static func tlsIdentity(_ invocation: Invocation) throws(CLIFailure) -> TLSServerIdentity {
    let directory = URL(fileURLWithPath: invocation.global.dataDirectory(environment: invocation.environment), isDirectory: true)
    do {
      let authority = try SandboxCertificateAuthority.open(
        in: directory.appendingPathComponent("ca", isDirectory: true),
        storage: try SharedSecretStorage.resolve(invocation.global, environment: invocation.environment),
        validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()))
      return try authority.tlsServerIdentity(now: Date())
    } catch let error as SharedSecretStorage.Failure {
      throw CLIFailure("cannot prepare the TLS certificate: \(error)", .configuration)
    } catch {
      throw CLIFailure("cannot prepare the TLS certificate: \(error)", .cannotCreate)
    }
  }

  /// What a client must do to reach the server over HTTPS, one line.
  static func trustLine(_ identity: TLSServerIdentity) -> String {
    "TLS: trust the root certificate \(identity.rootCertificateFile.path) (certificate \(identity.certificateFile.path), "
      + (identity.wasIssued ? "issued now, " : "")
      + "for \(TLSServerIdentity.hostNames.joined(separator: ", ")), \(TLSServerIdentity.ipAddresses.joined(separator: ", ")))."
  }
}
