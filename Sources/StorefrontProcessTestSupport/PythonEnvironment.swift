import Foundation

/// A Python virtual environment the tests make themselves in `.build/`, from a pinned requirements
/// file (`python3 -m venv`, then `pip install -r`), made once and reused while the file is unchanged.
/// Apple's library (``AppleVerifier``) and schemathesis each have their own.
public struct PythonEnvironment: Sendable {
  /// Python or PyPI cannot give the environment; the test decides whether that skips or fails it.
  public struct Unavailable: Error, CustomStringConvertible {
    /// What is missing.
    public enum Reason: Sendable {
      /// `python3 -m venv` failed: no Python 3, or no `venv` module (Debian: `python3-venv`).
      case noVirtualEnvironment
      /// pip could not install the requirements (PyPI unreachable, offline).
      case packagesNotInstalled
    }

    /// What is missing.
    public var reason: Reason
    /// The requirements file asked for.
    public var requirements: String
    /// The tool's output.
    public var output: String

    /// A sentence for the test log, with the tail of the tool's output.
    public var description: String {
      switch reason {
      case .noVirtualEnvironment:
        "python3 -m venv failed (install python3-venv), so \(requirements) cannot be installed:\n\(output.suffix(2_000))"
      case .packagesNotInstalled:
        "Could not install \(requirements) from PyPI (offline?). pip said:\n\(output.suffix(2_000))"
      }
    }
  }

  /// The file in the environment holding the requirements it was made from.
  static let marker = "storefront-requirements.txt"

  /// The environment's directory.
  public let directory: URL
  /// The environment's Python.
  public var python: URL { directory.appendingPathComponent("bin/python") }

  /// A script the environment installed (`bin/NAME`). Run it as ``python``'s first argument: its
  /// `#!` line names the staging directory the environment was built in, before it was renamed.
  public func script(_ name: String) -> URL { directory.appendingPathComponent("bin").appendingPathComponent(name) }

  /// The environment in `directory`, made from `requirements` when it is missing, incomplete or made
  /// from other requirements. It is built beside its final place and renamed, so a half-made
  /// environment is never used.
  ///
  /// - Throws: ``Unavailable`` when Python's `venv` or PyPI is unavailable.
  public static func prepare(requirements: URL, in directory: URL) throws -> PythonEnvironment {
    let wanted = try String(contentsOf: requirements, encoding: .utf8)
    let environment = PythonEnvironment(directory: directory)
    let made = try? String(contentsOf: directory.appendingPathComponent(marker), encoding: .utf8)
    if made == wanted, FileManager.default.isExecutableFile(atPath: environment.python.path) { return environment }
    let staging = directory.deletingLastPathComponent()
      .appendingPathComponent("\(directory.lastPathComponent).staging-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: staging)
    defer { try? FileManager.default.removeItem(at: staging) }
    let name = requirements.path.replacingOccurrences(of: StorefrontBinary.packageRoot.path + "/", with: "")
    let created = try ChildProcess.run("/usr/bin/env", ["python3", "-m", "venv", staging.path], timeout: 300)
    guard created.status == 0, !created.signalled else {
      throw Unavailable(reason: .noVirtualEnvironment, requirements: name, output: created.stdout + created.stderr)
    }
    let installed = try ChildProcess.run(
      staging.appendingPathComponent("bin/python").path,
      [
        "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--timeout", "30", "--retries", "2",
        "-r", requirements.path,
      ],
      timeout: 900)
    guard installed.status == 0, !installed.signalled else {
      throw Unavailable(reason: .packagesNotInstalled, requirements: name, output: installed.stdout + installed.stderr)
    }
    try Data(wanted.utf8).write(to: staging.appendingPathComponent(marker))
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.moveItem(at: staging, to: directory)
    return environment
  }
}
