import Foundation

/// The real `storefront` executable that `swift build` made, run as a child process with a chosen
/// environment, working directory and timeout.
///
/// Test targets that use it depend on the `storefront` executable target, so `swift test` builds
/// the binary first; the benchmark finds the release binary next to itself.
public struct StorefrontBinary: Sendable {
  /// The package's root directory (the one holding `Package.swift`).
  public static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The executable.
  public var executable: URL
  /// The child's whole environment (nothing else is inherited).
  public var environment: [String: String]
  /// Where the child starts; `nil` keeps this process's working directory.
  public var workingDirectory: URL?
  /// Seconds a run may take before the process is killed with SIGKILL.
  public var timeout: TimeInterval
  /// Told about each process killed at its timeout.
  public var reportTimeout: RunningProcess.TimeoutReporter?

  /// Runs `executable` with exactly `environment`.
  public init(
    executable: URL, environment: [String: String], workingDirectory: URL? = nil,
    timeout: TimeInterval = ChildProcess.defaultTimeout, reportTimeout: RunningProcess.TimeoutReporter? = nil
  ) {
    self.executable = executable
    self.environment = environment
    self.workingDirectory = workingDirectory
    self.timeout = timeout
    self.reportTimeout = reportTimeout
  }

  /// The built binary (``locate(overrideVariable:searchDebugBuild:)``) with this process's
  /// environment plus `NO_COLOR=1` and `SWIFT_BACKTRACE=enable=no` (a crash is reported by its
  /// signal, not by a backtrace that takes seconds).
  public static func inheritingEnvironment(
    timeout: TimeInterval = ChildProcess.defaultTimeout, reportTimeout: RunningProcess.TimeoutReporter? = nil
  ) throws -> StorefrontBinary {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["SWIFT_BACKTRACE"] = "enable=no"
    return StorefrontBinary(
      executable: try locate(), environment: environment, timeout: timeout, reportTimeout: reportTimeout)
  }

  /// The built binary confined to `directory`: it is the working directory and `HOME`, and the
  /// environment is only ``isolatedEnvironment(home:)`` plus `NO_COLOR=1`, so no inherited
  /// `STOREFRONT_DATA_DIR` or `XDG_DATA_HOME` can leak in.
  public static func isolated(
    in directory: URL, timeout: TimeInterval = ChildProcess.defaultTimeout,
    reportTimeout: RunningProcess.TimeoutReporter? = nil
  ) throws -> StorefrontBinary {
    var environment = isolatedEnvironment(home: directory)
    environment["NO_COLOR"] = "1"
    return StorefrontBinary(
      executable: try locate(), environment: environment, workingDirectory: directory, timeout: timeout,
      reportTimeout: reportTimeout)
  }

  /// `PATH` (this process's, else `/usr/bin:/bin`) and `HOME` = `home`, and nothing else.
  public static func isolatedEnvironment(home: URL) -> [String: String] {
    ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path]
  }

  /// Where the built `storefront` is, trying in order: `$overrideVariable` (which must then name
  /// an executable); the directory of the running executable (the test runner, or
  /// `storefront-bench`: same build configuration); beside each loaded `.xctest` bundle and the
  /// main bundle (macOS keeps them inside the products directory); and, with `searchDebugBuild`,
  /// `.build/debug/storefront` in the package.
  public static func locate(
    overrideVariable: String = "STOREFRONT_BINARY", searchDebugBuild: Bool = true
  ) throws -> URL {
    if let explicit = ProcessInfo.processInfo.environment[overrideVariable], !explicit.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: explicit) else {
        throw Missing(searched: [explicit], hint: "$\(overrideVariable) does not name an executable.")
      }
      return URL(fileURLWithPath: explicit)
    }
    var directories: [URL] = []
    if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      directories.append(URL(fileURLWithPath: me).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    directories += [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
    if searchDebugBuild { directories.append(packageRoot.appendingPathComponent(".build/debug")) }
    var candidates: [URL] = []
    for directory in directories {
      let candidate = directory.appendingPathComponent("storefront").standardizedFileURL
      if !candidates.contains(candidate) { candidates.append(candidate) }
    }
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
      return found
    }
    throw Missing(
      searched: candidates.map(\.path),
      hint: "Run `swift build` first, or set \(overrideVariable) to the binary.")
  }

  /// The binary was not where ``locate(overrideVariable:searchDebugBuild:)`` looked.
  public struct Missing: Error, CustomStringConvertible {
    /// Every path tried.
    public var searched: [String]
    /// What to do about it.
    public var hint: String

    /// A sentence for the test log.
    public var description: String {
      "The storefront executable was not found; looked in \(searched.joined(separator: ", ")). \(hint)"
    }
  }

  /// Runs `storefront arguments…` to completion with `stdin` on standard input; `environment`
  /// adds to (or replaces entries of) ``environment`` for this run.
  public func run(
    _ arguments: [String], stdin: Data = Data(), environment overrides: [String: String] = [:],
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> ProcessResult {
    try start(arguments, stdin: stdin, environment: overrides).wait(timeout: timeout, file: file, line: line)
  }

  /// Starts `storefront arguments…` without waiting, so several can run at once.
  public func start(
    _ arguments: [String], stdin: Data = Data(), environment overrides: [String: String] = [:]
  ) throws -> RunningProcess {
    try ChildProcess.start(
      executable.path, arguments, stdin: stdin, environment: environment.merging(overrides) { $1 },
      workingDirectory: workingDirectory, reportTimeout: reportTimeout)
  }

  /// Runs `storefront arguments…` line by line; see
  /// ``ChildProcess/stream(_:_:stdin:environment:workingDirectory:timeout:killAfterBytes:reportTimeout:file:line:onLine:)``.
  public func stream(
    _ arguments: [String], stdin: Data = Data(), environment overrides: [String: String] = [:],
    killAfterBytes: Int? = nil, file: StaticString = #filePath, line: UInt = #line,
    onLine: (String, Int) -> Bool
  ) throws -> ProcessResult {
    try ChildProcess.stream(
      executable.path, arguments, stdin: stdin, environment: environment.merging(overrides) { $1 },
      workingDirectory: workingDirectory, timeout: timeout, killAfterBytes: killAfterBytes,
      reportTimeout: reportTimeout, file: file, line: line, onLine: onLine)
  }
}
