import Foundation

/// A throwaway PostgreSQL cluster that tests and benchmarks start, restart and stop themselves:
/// `initdb` into a new temporary directory and `pg_ctl`, as the `postgres` user when this process is
/// root (PostgreSQL refuses to run as root), optionally inside a network namespace
/// (`ip netns exec`), listening on a TCP address of its own choosing.
///
/// Unlike ``PostgreSQLTestServer`` it keeps `fsync` and `synchronous_commit` at their defaults
/// unless told otherwise, so a benchmark measures real commits.
public final class PostgreSQLCluster: Sendable {
  /// Where and how the cluster listens and runs.
  public struct Options: Sendable {
    /// The TCP addresses to listen on (`listen_addresses`, comma-separated); ``uri`` uses the first.
    public var address: String
    /// The TCP port; 0 picks a free one on `address` before starting.
    public var port: Int
    /// Extra server settings (`-c name=value`).
    public var settings: [String]
    /// The network namespace the server runs in, if any.
    public var namespace: String?
    /// A network (CIDR) whose clients log in without a password, beyond loopback (`pg_hba.conf`).
    public var trustedNetwork: String?

    public init(
      address: String = "127.0.0.1", port: Int = 0, settings: [String] = [], namespace: String? = nil, trustedNetwork: String? = nil
    ) {
      self.address = address
      self.port = port
      self.settings = settings
      self.namespace = namespace
      self.trustedNetwork = trustedNetwork
    }
  }

  /// `postgresql://postgres@address:port/postgres`, the maintenance database.
  public let uri: String
  /// The server's binaries (`/usr/lib/postgresql/<version>/bin`).
  public let binaries: String
  /// The cluster's directory (data, log and socket), removed by ``stop()``.
  public let directory: URL
  public let port: Int
  private let options: Options

  /// Initializes and starts a cluster.
  ///
  /// - Throws: ``PostgreSQLTestServer/Unavailable`` when PostgreSQL is not installed or will not start
  ///   (its log is in the message).
  public init(_ options: Options = Options()) throws {
    guard let binaries = Self.installedBinaries() else {
      throw PostgreSQLTestServer.Unavailable(description: "no PostgreSQL server (Debian: postgresql); run scripts/setup")
    }
    self.binaries = binaries
    self.options = options
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storefront-cluster-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    if getuid() == 0 {
      try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
    }
    port = options.port != 0 ? options.port : try Self.freePort(on: options.address, namespace: options.namespace)
    let first = options.address.split(separator: ",").first.map(String.init) ?? options.address
    uri = "postgresql://postgres@\(first):\(port)/postgres"
    let initdb = try run("initdb", ["-D", dataPath, "-A", "trust", "-U", "postgres", "--no-sync"])
    guard initdb.status == 0 else {
      throw PostgreSQLTestServer.Unavailable(description: "initdb into \(dataPath) failed: \(initdb.stderr)")
    }
    if let network = options.trustedNetwork {
      let hba = URL(fileURLWithPath: dataPath).appendingPathComponent("pg_hba.conf")
      let handle = try FileHandle(forWritingTo: hba)
      defer { try? handle.close() }
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("host all all \(network) trust\n".utf8))
    }
    try start()
  }

  private var dataPath: String { directory.appendingPathComponent("data").path }

  /// Starts the server (again, after ``kill()`` or ``restart()``).
  public func start() throws {
    let settings = (["listen_addresses=\(options.address)", "max_connections=200"] + options.settings).flatMap { ["-c", $0] }
    let arguments = ["-p", String(port), "-k", directory.path] + settings
    let result = try run(
      "pg_ctl", ["-D", dataPath, "-l", directory.appendingPathComponent("log").path, "-o", arguments.joined(separator: " "), "-w", "start"])
    guard result.status == 0 else {
      let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
      throw PostgreSQLTestServer.Unavailable(description: "pg_ctl start in \(directory.path) failed: \(result.stderr) \(log.suffix(2_000))")
    }
  }

  /// Stops the server now (`-m immediate`: connections are cut, as in a crash), keeping the data.
  public func kill() throws {
    _ = try run("pg_ctl", ["-D", dataPath, "-m", "immediate", "-w", "stop"])
  }

  /// ``kill()`` then ``start()``: the server restarts with crash recovery; clients lose their sessions.
  public func restart() throws {
    try kill()
    try start()
  }

  /// Stops the server and removes its directory; safe to call twice.
  public func stop() {
    _ = try? run("pg_ctl", ["-D", dataPath, "-m", "fast", "-w", "stop"])
    try? FileManager.default.removeItem(at: directory)
  }

  /// The URI of database `name` on this cluster, over TCP to `host` (default: the first address).
  public func uri(database name: String, host: String? = nil) -> String {
    let first = options.address.split(separator: ",").first.map(String.init) ?? options.address
    return "postgresql://postgres@\(host ?? first):\(port)/\(name)"
  }

  /// The URI of database `name` over the cluster's Unix socket, which works from any network
  /// namespace (the socket is a file).
  public func socketURI(database name: String) -> String {
    "postgresql://postgres@/\(name)?host=\(directory.path)&port=\(port)"
  }

  /// Creates database `name` and returns its URI.
  public func makeDatabase(_ name: String) throws -> String {
    let result = try run("createdb", ["--maintenance-db=\(uri)", name], asServer: false)
    guard result.status == 0 else { throw PostgreSQLTestServer.Unavailable(description: "createdb \(name) failed: \(result.stderr)") }
    return uri(database: name)
  }

  /// Runs one of the cluster's tools (`pgbench`, `psql`…), as the server user and in its namespace
  /// when `asServer`, else as this process (still in the namespace: the address is only there).
  public func run(_ tool: String, _ arguments: [String], asServer: Bool = true, timeout: TimeInterval = 120) throws -> ProcessResult {
    var command = [binaries + "/" + tool] + arguments
    if asServer, getuid() == 0 { command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command }
    if let namespace = options.namespace { command = ["/usr/sbin/ip", "netns", "exec", namespace] + command }
    return try ChildProcess.run(command[0], Array(command.dropFirst()), timeout: timeout)
  }

  /// The newest `/usr/lib/postgresql/<version>/bin` holding `initdb` and `pgbench`.
  public static func installedBinaries() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
    return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
  }

  /// A TCP port free on `address` now (bound to 0 and released); in a namespace, asked there.
  private static func freePort(on address: String, namespace: String?) throws -> Int {
    let script = "import socket; s=socket.socket(); s.bind(('\(address)', 0)); print(s.getsockname()[1])"
    var command = ["/usr/bin/python3", "-c", script]
    if let namespace { command = ["/usr/sbin/ip", "netns", "exec", namespace] + command }
    let result = try ChildProcess.run(command[0], Array(command.dropFirst()), timeout: 30)
    guard result.status == 0, let port = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw PostgreSQLTestServer.Unavailable(description: "no free port on \(address): \(result.stderr)")
    }
    return port
  }
}
