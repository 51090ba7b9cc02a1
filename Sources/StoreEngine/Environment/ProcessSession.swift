import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The ``AppSession`` of a storefront process (or an app attached to one), read from Linux's `/proc`.
///
/// The id is `<pid>:<start time>@<boot id>`: the start time (field 22 of `/proc/<pid>/stat`, in
/// clock ticks since boot) tells a reused pid from the original process, and the boot id tells a
/// process of an earlier boot from one of this boot with the same pid and start time. Another
/// session is alive when its process exists, is not a zombie, and started at the recorded time.
/// Ids that do not parse (written by some other build) count as dead, so their purchases are
/// recovered rather than stuck.
public struct ProcessSession: Sendable {
  /// Where `/proc` is; tests point it at a scratch directory to fake other processes.
  public var procRoot: String = "/proc"

  public init(procRoot: String = "/proc") { self.procRoot = procRoot }

  /// This process's session.
  public func current() -> AppSession {
    let ours = id(of: ProcessInfo.processInfo.processIdentifier)
    let probe = self
    return AppSession(id: ours, isAlive: { other in probe.isAlive(other) })
  }

  /// The session id of process `pid`, or of this process when pid is ours. Without `/proc` (not
  /// Linux) the start time and boot id are empty and liveness falls back to `kill(pid, 0)`.
  public func id(of pid: Int32) -> String {
    "\(pid):\(stat(of: pid)?.startTime ?? "")@\(bootID ?? "")"
  }

  /// Whether the process of session `id` still runs.
  public func isAlive(_ id: String) -> Bool {
    guard let parsed = Self.parse(id) else { return false }
    if !parsed.boot.isEmpty, let boot = bootID, boot != parsed.boot { return false }
    guard !parsed.startTime.isEmpty else { return kill(parsed.pid, 0) == 0 || errno == EPERM }
    guard let stat = stat(of: parsed.pid) else { return false }
    // A killed process stays a zombie until its parent reaps it; it will never answer a sheet.
    return stat.state != "Z" && stat.state != "X" && stat.startTime == parsed.startTime
  }

  /// `pid:start@boot` split up; nil when it is not of that form.
  public static func parse(_ id: String) -> (pid: Int32, startTime: String, boot: String)? {
    guard let at = id.lastIndex(of: "@"), let colon = id[..<at].firstIndex(of: ":"),
      let pid = Int32(id[..<colon]), pid > 0
    else { return nil }
    return (pid, String(id[id.index(after: colon)..<at]), String(id[id.index(after: at)...]))
  }

  /// The state (field 3) and start time (field 22) of a `/proc/<pid>/stat` line. The command name
  /// (field 2) is in parentheses and may itself hold spaces and parentheses, so fields are counted
  /// from the last `)`.
  public static func parseStat(_ text: String) -> (state: String, startTime: String)? {
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
    // fields[0] is field 3 (state), so field 22 is fields[19].
    guard fields.count > 19, UInt64(fields[19]) != nil else { return nil }
    return (String(fields[0]), String(fields[19]))
  }

  private func stat(of pid: Int32) -> (state: String, startTime: String)? {
    read("\(procRoot)/\(pid)/stat").flatMap(Self.parseStat)
  }

  private var bootID: String? {
    read("\(procRoot)/sys/kernel/random/boot_id")?.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `/proc` files report size 0, so they are read to the end rather than by their size.
  private func read(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
