import Foundation

/// The sandbox controls' fault plan of a data directory (`server-faults.json`), shared by the
/// processes on it: a scenario or the TUI writes it, `storefront serve` takes each request's fault
/// from it and counts it down. Every read-modify-write holds an exclusive `flock`, so a count is
/// never lost between processes; without the file there are no faults (one `stat` a request).
public struct FaultPlanFile: Sendable {
  public static let fileName = "server-faults.json"
  /// The file's path.
  public let path: String

  /// The plan file of the data directory `directory`.
  public init(directory: URL) {
    path = directory.appendingPathComponent(Self.fileName).path
  }

  /// Why the plan could not be written, naming the file.
  public struct WriteError: Error, CustomStringConvertible {
    public var description: String
  }

  /// The plan as stored (empty without a file, or with one this build cannot read).
  public func read() -> FaultPlan {
    guard let data = FileManager.default.contents(atPath: path) else { return FaultPlan() }
    return (try? JSONDecoder().decode(FaultPlan.self, from: data)) ?? FaultPlan()
  }

  /// Changes the plan under the file's lock; an empty plan removes the file.
  public func update(_ change: (inout FaultPlan) -> Void) throws(WriteError) {
    let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
    guard descriptor >= 0 else { throw WriteError(description: "Cannot write '\(path)': \(String(cString: strerror(errno))).") }
    defer { close(descriptor) }
    flock(descriptor, LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    var plan = Self.decode(Self.contents(of: descriptor))
    change(&plan)
    if plan.isEmpty {
      unlink(path)
      return
    }
    guard Self.replaceContents(of: descriptor, with: plan) else {
      throw WriteError(description: "Cannot write '\(path)': \(String(cString: strerror(errno))).")
    }
  }

  /// The fault for one request to `endpoint`, counted against its `remaining` under the lock.
  public func take(for endpoint: APIEndpoint) -> FaultPlan.Fault? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let descriptor = open(path, O_RDWR)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    flock(descriptor, LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    var plan = Self.decode(Self.contents(of: descriptor))
    let before = plan
    let fault = plan.take(for: endpoint)
    if plan != before {
      if plan.isEmpty { unlink(path) } else { _ = Self.replaceContents(of: descriptor, with: plan) }
    }
    return fault
  }

  /// `verifyReceipt`'s injected status for one request, counted down under the lock.
  public func takeReceiptStatus() -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    var status: Int?
    try? update { plan in status = plan.takeReceiptStatus() }
    return status
  }

  private static func decode(_ data: Data) -> FaultPlan {
    (try? JSONDecoder().decode(FaultPlan.self, from: data)) ?? FaultPlan()
  }

  private static func contents(of descriptor: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    lseek(descriptor, 0, SEEK_SET)
    while true {
      let count = Foundation.read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return data
  }

  /// Rewrites the file in place (the lock belongs to its inode, so no rename).
  private static func replaceContents(of descriptor: Int32, with plan: FaultPlan) -> Bool {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    guard let data = try? encoder.encode(plan), ftruncate(descriptor, 0) == 0 else { return false }
    lseek(descriptor, 0, SEEK_SET)
    let written = data.withUnsafeBytes { raw in raw.baseAddress.map { Foundation.write(descriptor, $0, raw.count) } ?? 0 }
    return written == data.count
  }
}
