import Foundation

/// A fresh directory named `storefront-<label>-<UUID>`, private to the user (mode 0700), under the
/// system temporary directory (or `/dev/shm`, see ``init(label:inMemory:)``). Nothing removes it
/// but ``remove()``: a test registers that as a teardown block.
public struct TemporaryDirectory: Sendable {
  /// `/dev/shm` when it is a writable tmpfs: a SIGKILL leaves the page cache intact, so durability
  /// against a killed process means the same there, and the ledger's fsyncs cost nothing.
  public static let memoryBacked: URL? = {
    let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
    guard mounts.contains(" /dev/shm tmpfs "), access("/dev/shm", W_OK) == 0 else { return nil }
    return URL(fileURLWithPath: "/dev/shm", isDirectory: true)
  }()

  /// The directory.
  public let url: URL

  /// Creates the directory; with `inMemory`, in ``memoryBacked`` when there is one.
  public init(label: String = "test", inMemory: Bool = false) throws {
    let base = inMemory ? (Self.memoryBacked ?? FileManager.default.temporaryDirectory) : FileManager.default.temporaryDirectory
    url = base.appendingPathComponent("storefront-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    chmod(url.path, 0o700)  // whatever the umask
  }

  /// The directory's path.
  public var path: String { url.path }

  /// The path of `name` inside the directory (not created).
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` to `name` inside the directory and returns the file's path.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  /// Removes the directory and everything in it. A test may have left files immutable
  /// (`chattr +i`), which makes removal fail; then the flag is cleared (`chattr -R -i`) and the
  /// removal tried again.
  public func remove() {
    do {
      try FileManager.default.removeItem(at: url)
      return
    } catch {
      guard FileManager.default.fileExists(atPath: url.path) else { return }
    }
    let chattr = "/usr/bin/chattr"
    if FileManager.default.isExecutableFile(atPath: chattr) {
      _ = try? ChildProcess.run(chattr, ["-R", "-i", url.path], timeout: 30)
    }
    try? FileManager.default.removeItem(at: url)
  }
}
