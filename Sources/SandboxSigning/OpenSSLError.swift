import COpenSSL

/// A failed OpenSSL call, with the messages OpenSSL queued for it.
public struct OpenSSLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was being done ("generating a P-256 key").
  public var operation: String
  /// OpenSSL's error strings, oldest first.
  public var details: [String]

  public init(operation: String, details: [String] = []) {
    self.operation = operation
    self.details = details
  }

  /// Drains OpenSSL's thread-local error queue into an error for `operation`.
  static func capture(_ operation: String) -> OpenSSLError {
    var details: [String] = []
    while true {
      let code = ERR_get_error()
      if code == 0 { break }
      var buffer = [CChar](repeating: 0, count: 256)
      ERR_error_string_n(code, &buffer, buffer.count)
      details.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return OpenSSLError(operation: operation, details: details)
  }

  /// Clears stale errors so that a later ``capture(_:)`` reports only its own call's errors.
  static func clearQueue() { ERR_clear_error() }

  public var description: String {
    details.isEmpty ? "OpenSSL failed \(operation)" : "OpenSSL failed \(operation): \(details.joined(separator: "; "))"
  }
}
