import Foundation
import XCTest

/// Apple's app-store-server-library in the virtual environment `.build/apple-verifier-venv` that
/// SandboxSigningTests' AppleVerifier also uses (same marker file, so whichever runs first builds
/// it), driven through `Tests/python/verify_with_apple.py`.
struct AppleLibrary {
  /// One JWS for `SignedDataVerifier`; the keys are those verify_with_apple.py reads.
  struct Case: Encodable {
    var name: String
    var kind: String  // "transaction" or "renewal"
    var jws: String
    var root_der: String
    var bundle_id: String
    var environment = "SANDBOX"
  }

  /// Apple's verdict: `status` 0 is accepted, else its `VerificationStatus`.
  struct Verdict: Decodable {
    struct Decoded: Decodable {
      var transactionId: String?
      var originalTransactionId: String?
      var bundleId: String?
      var productId: String?
      var environment: String?
      var autoRenewProductId: String?
    }
    var name: String
    var status: Int
    var cause: String?
    var decoded: Decoded?
  }

  static let root = StorefrontBinary.packageRoot
  static let requirements = root.appendingPathComponent("Tests/python/requirements.txt")
  static let script = root.appendingPathComponent("Tests/python/verify_with_apple.py")
  static let venv = root.appendingPathComponent(".build/apple-verifier-venv")

  let python: URL

  /// The cached environment, made when missing or when requirements.txt changed. Skips the test
  /// only when pip cannot install the requirements (PyPI unreachable), with pip's output.
  static func prepare(scratch: TestDirectory) throws -> AppleLibrary {
    let wanted = try String(contentsOf: requirements, encoding: .utf8)
    let marker = venv.appendingPathComponent("storefront-requirements.txt")
    let python = venv.appendingPathComponent("bin/python")
    if (try? String(contentsOf: marker, encoding: .utf8)) == wanted, FileManager.default.isExecutableFile(atPath: python.path) {
      return AppleLibrary(python: python)
    }
    // Built beside the final place and renamed, so a half-made environment is never used.
    let staging = venv.deletingLastPathComponent()
      .appendingPathComponent("apple-verifier-venv.staging-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: staging)
    defer { try? FileManager.default.removeItem(at: staging) }
    let created = try run("/usr/bin/env", ["python3", "-m", "venv", staging.path], scratch: scratch)
    guard created.status == 0 else {
      throw Failure(description: "python3 -m venv failed (install python3-venv):\n\(created.stdout)\(created.stderr)")
    }
    let installed = try run(
      staging.appendingPathComponent("bin/python").path,
      ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--timeout", "30", "--retries", "2", "-r", requirements.path],
      scratch: scratch)
    guard installed.status == 0 else {
      throw XCTSkip("PyPI is unreachable, so Apple's app-store-server-library cannot be installed. pip said:\n\((installed.stdout + installed.stderr).suffix(2_000))")
    }
    try Data(wanted.utf8).write(to: staging.appendingPathComponent("storefront-requirements.txt"))
    try? FileManager.default.removeItem(at: venv)
    try FileManager.default.moveItem(at: staging, to: venv)
    return AppleLibrary(python: python)
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Apple's verdict on every case, by name.
  func verify(_ cases: [Case], scratch: TestDirectory) throws -> [String: Verdict] {
    let request = try JSONEncoder().encode(["cases": cases])
    let result = try Self.run(python.path, [Self.script.path], stdin: request, scratch: scratch)
    guard result.status == 0 else {
      throw Failure(description: "verify_with_apple.py exited \(result.status): \(result.stderr)")
    }
    let verdicts = try JSONDecoder().decode([Verdict].self, from: Data(result.stdout.utf8))
    return Dictionary(verdicts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Runs a helper process with its output in files, so no pipe can fill up and block it.
  private static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, scratch: TestDirectory) throws -> ProcessResult {
    let name = UUID().uuidString
    let out = scratch.url.appendingPathComponent("\(name).out")
    let err = scratch.url.appendingPathComponent("\(name).err")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = try OutputFile.create(out)
    process.standardError = try OutputFile.create(err)
    if let stdin {
      let input = scratch.url.appendingPathComponent("\(name).in")
      try stdin.write(to: input)
      process.standardInput = try FileHandle(forReadingFrom: input)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    process.waitUntilExit()
    return ProcessResult(
      arguments: arguments, status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
      stderr: try String(contentsOf: err, encoding: .utf8))
  }
}
