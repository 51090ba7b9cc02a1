import Foundation

/// A PostgreSQL server for the tests: `$STOREFRONT_TEST_POSTGRES` (CI starts a throwaway cluster and
/// sets it), else a cluster this test process makes itself with the installed PostgreSQL (`initdb`
/// into a temporary directory, a Unix socket only, no TCP port, stopped when the process exits), so
/// `swift test` alone runs the PostgreSQL tests on a machine with PostgreSQL installed.
///
/// Each test asks for a database of its own (``makeDatabase(label:)``), so tests never see each
/// other's rows, advisory locks or schema.
public final class PostgreSQLTestServer: Sendable {
  /// Why there is no server; the test skips with this text.
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// The connection URI of the maintenance database (`postgres`).
  public let uri: String
  private let binaries: String
  private let counter = Guarded(0)

  /// The one server of this test process, started on first use.
  public static func shared() throws -> PostgreSQLTestServer {
    try sharedResult.get()
  }

  private static let sharedResult: Result<PostgreSQLTestServer, Unavailable> = {
    let binaries = installedBinaries()
    if let given = ProcessInfo.processInfo.environment["STOREFRONT_TEST_POSTGRES"], !given.isEmpty {
      guard let binaries else {
        return .failure(Unavailable(description: "STOREFRONT_TEST_POSTGRES is set but no PostgreSQL client (createdb) is installed"))
      }
      return .success(PostgreSQLTestServer(uri: given, binaries: binaries))
    }
    guard let binaries else {
      return .failure(
        Unavailable(
          description:
            "no PostgreSQL server: set STOREFRONT_TEST_POSTGRES=postgresql://… or install PostgreSQL (Debian: postgresql), as .ci/run does"))
    }
    return Result { try startCluster(binaries) }.mapError { $0 as? Unavailable ?? Unavailable(description: "\($0)") }
  }()

  private init(uri: String, binaries: String) {
    self.uri = uri
    self.binaries = binaries
  }

  /// Creates an empty database and returns its URI.
  public func makeDatabase(label: String = "test") throws -> String {
    let number = counter.withLock { value -> Int in
      value += 1
      return value
    }
    let name = "sf_\(label.lowercased().filter { $0.isLetter || $0.isNumber })_\(getpid())_\(number)"
    let result = try ChildProcess.run(
      binaries + "/createdb", ["--maintenance-db=\(uri)", name], timeout: 30)
    guard result.status == 0 else {
      throw Unavailable(description: "createdb \(name) failed: \(result.stderr)")
    }
    return Self.uri(uri, database: name)
  }

  /// `base` with its database replaced by `database`.
  static func uri(_ base: String, database: String) -> String {
    let parts = base.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let location = String(parts[0])
    let query = parts.count > 1 ? "?" + parts[1] : ""
    let schemeEnd = location.range(of: "://")?.upperBound ?? location.startIndex
    let authority = location[schemeEnd...].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
    return String(location[..<schemeEnd]) + authority + "/" + database + query
  }

  /// The newest `/usr/lib/postgresql/<version>/bin` holding `initdb` and `createdb`.
  private static func installedBinaries() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
    for version in versions.reversed() {
      let bin = "\(root)/\(version)/bin"
      if FileManager.default.isExecutableFile(atPath: bin + "/createdb") { return bin }
    }
    return nil
  }

  /// `initdb` and `pg_ctl start` into a new temporary directory, as the `postgres` user when this
  /// process is root (PostgreSQL refuses to run as root).
  private static func startCluster(_ binaries: String) throws -> PostgreSQLTestServer {
    guard FileManager.default.isExecutableFile(atPath: binaries + "/initdb") else {
      throw Unavailable(description: "no PostgreSQL server binaries in \(binaries) (Debian: postgresql)")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let asRoot = getuid() == 0
    if asRoot {
      try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
    }
    func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
      asRoot
        ? try ChildProcess.run("/usr/sbin/runuser", ["-u", "postgres", "--", binaries + "/" + tool] + arguments, timeout: 120)
        : try ChildProcess.run(binaries + "/" + tool, arguments, timeout: 120)
    }
    let data = directory.appendingPathComponent("data").path
    let initdb = try run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
    guard initdb.status == 0 else { throw Unavailable(description: "initdb failed: \(initdb.stderr)") }
    let options = "-c listen_addresses='' -k \(directory.path) -c fsync=off -c max_connections=200"
    let start = try run("pg_ctl", ["-D", data, "-l", directory.appendingPathComponent("log").path, "-o", options, "-w", "start"])
    guard start.status == 0 else { throw Unavailable(description: "pg_ctl start failed: \(start.stderr) \(start.stdout)") }
    clusterDirectory.withLock { $0 = directory }
    stopCommand.withLock { $0 = (asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [binaries + "/pg_ctl", "-D", data, "-m", "immediate", "stop"] }
    atexit { PostgreSQLTestServer.stopCluster() }
    return PostgreSQLTestServer(uri: "postgresql://postgres@/postgres?host=\(directory.path)", binaries: binaries)
  }

  private static let stopCommand = Guarded<[String]>([])
  private static let clusterDirectory = Guarded<URL?>(nil)

  private static func stopCluster() {
    let command = stopCommand.withLock { $0 }
    guard let executable = command.first else { return }
    _ = try? ChildProcess.run(executable, Array(command.dropFirst()), timeout: 30)
    if let directory = clusterDirectory.withLock({ $0 }) { try? FileManager.default.removeItem(at: directory) }
  }
}
