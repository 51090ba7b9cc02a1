import Foundation
import StoreEngine

/// The library side of `storefront verify`: one JWS a line in, one decoded payload a line out for
/// each line that verifies, and every line that does not, with its reason.
public enum VerifyTool {
  /// A line that did not verify.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the input.
    public var line: Int
    public var reason: JWSVerificationFailure

    public init(line: Int, reason: JWSVerificationFailure) {
      self.line = line
      self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
  }

  /// What `verify` prints and whether it failed.
  public struct Result: Sendable, Equatable {
    /// The decoded payload JSON of each verified line, in order (compact, exactly as signed).
    public var outputLines: [String]
    /// Every line that failed, in order; the lines after a failure are still checked, so one run
    /// names every broken signature (a backend batch is fixed in one go, not one line per run).
    public var failures: [Failure]

    public init(outputLines: [String], failures: [Failure]) {
      self.outputLines = outputLines
      self.failures = failures
    }

    /// The first line that failed, if any.
    public var failure: Failure? { failures.first }
  }

  /// Verifies `lines` (blank lines are skipped) with `verifier`.
  public static func run(lines: [String], verifier: JWSVerifier) -> Result {
    var output: [String] = []
    var failures: [Failure] = []
    for (index, line) in lines.enumerated() {
      let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if text.isEmpty { continue }
      do {
        output.append(try verifier.verify(text).jws.payloadJSON)
      } catch {
        failures.append(Failure(line: index + 1, reason: error))
      }
    }
    return Result(outputLines: output, failures: failures)
  }

  /// Verifies `lines` against `root` (PEM or DER bytes, as from `--root`).
  ///
  /// - Throws: ``RootCertificateError`` when `root` is not a certificate.
  public static func run(
    lines: [String], root: Data, rootName: String, bundleID: String?, environment: String = "Sandbox",
    now: @escaping @Sendable () -> Date
  ) throws -> Result {
    let certificate = try loadRoot(root, name: rootName)
    let verifier = JWSVerifier(trustedRoots: [certificate], bundleID: bundleID, environment: environment, now: now)
    return run(lines: lines, verifier: verifier)
  }

  /// Reads a root certificate given by the user, PEM or DER.
  public static func loadRoot(_ data: Data, name: String) throws -> Certificate {
    do {
      return try Certificate(pemOrDER: data)
    } catch {
      throw RootCertificateError(path: name)
    }
  }

  /// The file given as the trusted root is not a certificate.
  public struct RootCertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public init(path: String) { self.path = path }
    public var description: String {
      "'\(path)' is not a PEM or DER certificate; export the root with 'storefront certificate'."
    }
  }

  /// Splits input text into lines for ``run(lines:verifier:)``.
  public static func lines(of text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}
