import Foundation
import XCTest

/// Apple's App Store Server Library in a Python virtual environment cached under `.build/`, driven
/// through `Tests/python/verify_with_apple.py`.
struct AppleVerifier {
  /// One JWS for Apple's `SignedDataVerifier`.
  struct Case: Encodable {
    enum Kind: String, Encodable {
      case transaction
      case renewal
    }
    var name: String
    var kind: Kind
    var jws: String
    // snake_case: these are the JSON keys verify_with_apple.py reads.
    var root_der: String
    var bundle_id: String
    var environment = "SANDBOX"
  }

  /// Apple's verdict: `status` 0 is OK, else `VerificationStatus`.
  struct Verdict: Decodable {
    struct Decoded: Decodable, Equatable {
      var transactionId: String?
      var originalTransactionId: String?
      var bundleId: String?
      var productId: String?
      var price: Int64?
      var currency: String?
      var quantity: Int?
      var rawType: String?
      var environment: String?
      var signedDate: Int64?
      var autoRenewProductId: String?
      var autoRenewStatus: Int?
      var renewalPrice: Int64?
    }
    var name: String
    var status: Int
    var cause: String?
    var decoded: Decoded?
  }

  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let requirements = packageRoot.appendingPathComponent("Tests/python/requirements.txt")
  static let script = packageRoot.appendingPathComponent("Tests/python/verify_with_apple.py")
  static let venv = packageRoot.appendingPathComponent(".build/apple-verifier-venv")

  let python: URL

  /// The cached environment, creating it (python3 -m venv, pip install -r requirements.txt) when it
  /// is missing or its requirements changed. Skips the test when Python or PyPI is unavailable.
  static func prepare() throws -> AppleVerifier {
    let wanted = try String(contentsOf: requirements, encoding: .utf8)
    let marker = venv.appendingPathComponent("storefront-requirements.txt")
    let python = venv.appendingPathComponent("bin/python")
    if (try? String(contentsOf: marker, encoding: .utf8)) == wanted {
      return AppleVerifier(python: python)
    }

    // Build beside the final place and rename, so a half-made environment is never reused.
    let staging = venv.deletingLastPathComponent()
      .appendingPathComponent("apple-verifier-venv.staging-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: staging)
    defer { try? FileManager.default.removeItem(at: staging) }
    let created = try run("/usr/bin/env", ["python3", "-m", "venv", staging.path])
    guard created.status == 0 else {
      throw XCTSkip("python3 -m venv is unavailable, so Apple's verifier cannot run:\n\(created.output)")
    }
    let installed = try run(
      staging.appendingPathComponent("bin/python").path,
      [
        "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--timeout", "30", "--retries", "2",
        "-r", requirements.path,
      ])
    guard installed.status == 0 else {
      throw XCTSkip(
        "Could not install Apple's app-store-server-library from PyPI (offline?), so the acceptance test "
          + "against Apple's SignedDataVerifier is skipped. pip said:\n\(installed.output.suffix(2_000))")
    }
    try Data(wanted.utf8).write(to: staging.appendingPathComponent("storefront-requirements.txt"))
    try? FileManager.default.removeItem(at: venv)
    try FileManager.default.moveItem(at: staging, to: venv)
    return AppleVerifier(python: python)
  }

  /// Runs every case through Apple's library and returns the verdicts by case name.
  func verify(_ cases: [Case]) throws -> [String: Verdict] {
    let request = try JSONEncoder().encode(["cases": cases])
    let result = try Self.run(python.path, [Self.script.path], input: request, separateErrors: true)
    guard result.status == 0 else {
      XCTFail("verify_with_apple.py exited \(result.status): \(result.errors)")
      return [:]
    }
    let verdicts = try JSONDecoder().decode([Verdict].self, from: Data(result.output.utf8))
    return Dictionary(uniqueKeysWithValues: verdicts.map { ($0.name, $0) })
  }

  private struct Output {
    var status: Int32
    var output: String
    var errors: String
  }

  private static func run(
    _ executable: String, _ arguments: [String], input: Data? = nil, separateErrors: Bool = false
  ) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = separateErrors ? errors : output
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = separateErrors ? errors.fileHandleForReading.readDataToEndOfFile() : Data()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      errors: String(decoding: errorData, as: UTF8.self))
  }
}
