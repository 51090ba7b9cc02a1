import Foundation
import SandboxSigning
import SharedLedgerSecrets
import StoreEngine

/// `storefront verify [--root CERT] FILE|-`: checks signed transactions as a backend would.
enum VerifyCommand {
  static let descriptor = CommandDescriptor(
    path: ["verify"],
    arguments: "[--root <cert>] [--bundle-id <id>] [--environment Sandbox|Production|Xcode] FILE|-",
    summary: "Verify signed transactions (JWS) and print their payloads.",
    discussion: """
      Reads one JWS per line (or the JSON lines of `storefront run --json`, taking each \
      signedTransaction and signedRenewalInfo). Checks the ES256 signature, the chain to the root \
      (default: this data directory's sandbox root), Apple's two certificate OIDs, validity at \
      signedDate, the bundle id (--bundle-id, default \(LiveStore.defaultBundleID)) and the \
      environment. Prints each decoded payload as JSON and names every line that fails, with its \
      reason; then a summary of the counts. Exit 1 when any line failed.
      """,
    options: [
      OptionSpec("--root", value: "cert", help: "Trusted root certificate, PEM or DER (default: the data directory's)."),
      OptionSpec("--environment", value: "name", help: "Expected environment: Sandbox (default), Production or Xcode."),
    ],
    run: run)

  static func run(_ invocation: Invocation) throws(CLIFailure) -> ExitCode {
    let path: String
    switch invocation.singleOperand("FILE", missing: "give a file of JWS lines, or - to read standard input.", for: descriptor) {
    case .success(let operand): path = operand
    case .failure(let failure): throw failure
    }
    let environment: String
    switch invocation.signingEnvironment(for: descriptor) {
    case .success(let value): environment = value
    case .failure(let failure): throw failure
    }
    let text: String
    switch ScriptSource.read(path, kind: "file of JWS lines") {
    case .success(let value): text = value
    case .failure(let problem): throw CLIFailure(problem.message, .noInput)
    }
    let root: Certificate
    do {
      root = try loadRoot(invocation)
    } catch let error as RootError {
      throw CLIFailure(error.message, error.exitCode)
    } catch {
      throw CLIFailure(error, otherwise: .noInput)
    }
    let (lines, numbers) = jwsLines(in: text)
    let verifier = JWSVerifier(
      trustedRoots: [root], bundleID: invocation.global.bundleID ?? LiveStore.defaultBundleID,
      environment: environment, now: { Date() })
    let result = VerifyTool.run(lines: lines, verifier: verifier)
    for line in result.outputLines { invocation.io.line(line) }
    let name = path == "-" ? "<stdin>" : path
    if !result.failures.isEmpty {
      for failure in result.failures {
        let line = failure.line - 1 < numbers.count ? numbers[failure.line - 1] : failure.line
        invocation.io.errorLine("\(name):\(line): rejected (\(failure.reason.name)): \(failure.reason)")
      }
      let verified = result.outputLines.count
      invocation.io.errorLine(
        "\(name): \(verified) signature\(verified == 1 ? "" : "s") verified, \(result.failures.count) rejected.")
      return .failure
    }
    if result.outputLines.isEmpty {
      invocation.io.errorLine("\(name): no signed data found; expected one JWS per line.")
      return .dataError
    }
    invocation.io.errorLine("\(name): \(result.outputLines.count) signature\(result.outputLines.count == 1 ? "" : "s") verified.")
    return .success
  }

  struct RootError: Error {
    var message: String
    var exitCode: ExitCode
  }

  private static func loadRoot(_ invocation: Invocation) throws -> Certificate {
    if let path = invocation.arguments.value("--root") {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw RootError(message: "Cannot read the root certificate '\(path)'. Export one with `storefront certificate --out \(path)`.", exitCode: ExitCode.noInput)
      }
      return try VerifyTool.loadRoot(data, name: path)
    }
    let directory = URL(fileURLWithPath: invocation.global.dataDirectory(environment: invocation.environment))
    guard let authority = try SandboxCertificateAuthority.existing(
      in: directory.appendingPathComponent("ca"), storage: SharedSecretStorage.resolve(invocation.global, environment: invocation.environment)) else {
      throw RootError(message: "No sandbox CA in '\(directory.path)' yet, so there is no default root. Pass --root CERT, or --data-dir of the storefront that signed the data.", exitCode: ExitCode.noInput)
    }
    return authority.root
  }

  /// The JWS to check and the input line each came from: plain JWS lines, or the signed fields of
  /// `run --json` event lines.
  static func jwsLines(in text: String) -> ([String], [Int]) {
    var lines: [String] = []
    var numbers: [Int] = []
    for (index, raw) in VerifyTool.lines(of: text).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      if line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
        for key in ["signedTransaction", "signedRenewalInfo"] {
          if let jws = object[key] as? String {
            lines.append(jws)
            numbers.append(index + 1)
          }
        }
        continue
      }
      lines.append(line)
      numbers.append(index + 1)
    }
    return (lines, numbers)
  }
}
