import Foundation
import SandboxSigning
import XCTest

/// Runs the `openssl` command-line tool on certificates, as an independent check of what the
/// library produced.
enum OpenSSLCLI {
  struct Output {
    var status: Int32
    var text: String
  }

  static func text(of certificate: Certificate) throws -> String {
    let file = try write(certificate.pem(), name: "cert.pem")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let output = try run(["x509", "-noout", "-text", "-in", file.path])
    XCTAssertEqual(output.status, 0, output.text)
    return output.text
  }

  /// `openssl verify -x509_strict -attime T -CAfile root -untrusted intermediate leaf`.
  static func verifyStrict(
    leaf: Certificate, intermediate: Certificate, root: Certificate, at date: Date
  ) throws -> Output {
    let directory = try SigningFixtures.temporaryDirectory("openssl")
    defer { try? FileManager.default.removeItem(at: directory) }
    let rootFile = directory.appendingPathComponent("root.pem")
    let intermediateFile = directory.appendingPathComponent("intermediate.pem")
    let leafFile = directory.appendingPathComponent("leaf.pem")
    try root.pem().write(to: rootFile)
    try intermediate.pem().write(to: intermediateFile)
    try leaf.pem().write(to: leafFile)
    return try run([
      "verify", "-x509_strict", "-attime", String(Int(date.timeIntervalSince1970)), "-CAfile", rootFile.path,
      "-untrusted", intermediateFile.path, leafFile.path,
    ])
  }

  static func run(_ arguments: [String]) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
  }

  private static func write(_ data: Data, name: String) throws -> URL {
    let url = try SigningFixtures.temporaryDirectory("openssl").appendingPathComponent(name)
    try data.write(to: url)
    return url
  }
}
