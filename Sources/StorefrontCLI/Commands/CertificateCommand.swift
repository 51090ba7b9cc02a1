import Foundation
import SandboxSigning
import SharedLedgerSecrets

/// `storefront certificate [--out PATH] [--der]`: exports the sandbox root for a backend to trust.
enum CertificateCommand {
  static let descriptor = CommandDescriptor(
    path: ["certificate"],
    arguments: "[--out <path>] [--der] [--regenerate-ca]",
    summary: "Export the sandbox root certificate (PEM).",
    discussion: """
      Creates the sandbox certificate authority in the data directory on first use (root, \
      intermediate and leaf, P-256, with Apple's OIDs), then writes the root certificate: PEM to \
      standard output, or to --out. Give the DER form (--der) to Apple's SignedDataVerifier as \
      root_certificates. No private key is ever printed.
      """,
    options: [
      OptionSpec("--out", value: "path", help: "Write the certificate to this file instead of standard output."),
      OptionSpec("--der", help: "DER instead of PEM (what app-store-server-library's SignedDataVerifier expects)."),
      OptionSpec("--regenerate-ca", help: "Create a new CA when the old one is damaged (old signatures stop verifying)."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    if let extra = invocation.operands.first {
      throw invocation.usageError("Unexpected argument '\(extra)': use --out PATH to choose where to write.", for: descriptor)
    }
    let der = invocation.arguments.flag("--der")
    let out = invocation.arguments.value("--out")
    if der && out == nil {
      throw invocation.usageError("--der writes binary data; give --out PATH as well.", for: descriptor)
    }
    let directory = URL(fileURLWithPath: invocation.global.dataDirectory(environment: invocation.environment))
    let data: Data
    do {
      let authority = try SandboxCertificateAuthority.open(
        in: directory.appendingPathComponent("ca", isDirectory: true),
        storage: try SharedSecretStorage.resolve(invocation.global, environment: invocation.environment),
        validFrom: SandboxCertificateAuthority.defaultValidFrom(now: Date()),
        regenerate: invocation.arguments.flag("--regenerate-ca"))
      data = try authority.exportRoot(format: der ? .der : .pem)
    } catch {
      throw CLIFailure(error, otherwise: .cannotCreate)
    }
    guard let out else {
      invocation.io.write(String(decoding: data, as: UTF8.self))
      return .success
    }
    do {
      try data.write(to: URL(fileURLWithPath: out), options: .atomic)
    } catch {
      throw CLIFailure("cannot write '\(out)': \(error.localizedDescription). Check that its folder exists and is writable.", .cannotCreate)
    }
    invocation.io.errorLine("Wrote the sandbox root certificate (\(der ? "DER" : "PEM")) to '\(out)'.")
    return .success
  }
}
