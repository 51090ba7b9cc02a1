import Foundation

/// How much a logged value may be shown.
public struct OSLogPrivacy: Equatable, Sendable {
  let isPublic: Bool
  public static let auto = OSLogPrivacy(isPublic: false)
  public static let `public` = OSLogPrivacy(isPublic: true)
  public static let `private` = OSLogPrivacy(isPublic: false)
  public static let sensitive = OSLogPrivacy(isPublic: false)
}

/// The level of a log message.
public struct OSLogType: Equatable, Sendable {
  let name: String
  public static let `default` = OSLogType(name: "default")
  public static let info = OSLogType(name: "info")
  public static let debug = OSLogType(name: "debug")
  public static let error = OSLogType(name: "error")
  public static let fault = OSLogType(name: "fault")
}

/// A log message with interpolated values (`"bought \(id, privacy: .public)"`). On Linux every value
/// is shown as written: there is no log store that redacts private values.
public struct OSLogMessage: ExpressibleByStringInterpolation, Sendable {
  public struct StringInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""
    public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
    public mutating func appendLiteral(_ literal: String) { text += literal }
    public mutating func appendInterpolation<T>(_ value: @autoclosure () -> T, privacy: OSLogPrivacy = .auto) {
      text += String(describing: value())
    }
  }

  let text: String
  public init(stringLiteral value: String) { text = value }
  public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }
}

/// Apple's unified-logging `Logger`, writing to standard error (where a command-line program's and
/// a test's console is) as `[subsystem:category] level: message`.
public struct Logger: Sendable {
  let subsystem: String
  let category: String

  public init(subsystem: String, category: String) {
    self.subsystem = subsystem
    self.category = category
  }

  /// A logger with no subsystem.
  public init() { self.init(subsystem: "", category: "") }

  public func log(level: OSLogType = .default, _ message: OSLogMessage) {
    let line = "[\(subsystem):\(category)] \(level.name): \(message.text)\n"
    FileHandle.standardError.write(Data(line.utf8))
  }

  public func log(_ message: OSLogMessage) { log(level: .default, message) }
  public func trace(_ message: OSLogMessage) { log(level: .debug, message) }
  public func debug(_ message: OSLogMessage) { log(level: .debug, message) }
  public func info(_ message: OSLogMessage) { log(level: .info, message) }
  public func notice(_ message: OSLogMessage) { log(level: .default, message) }
  public func warning(_ message: OSLogMessage) { log(level: .error, message) }
  public func error(_ message: OSLogMessage) { log(level: .error, message) }
  public func critical(_ message: OSLogMessage) { log(level: .fault, message) }
  public func fault(_ message: OSLogMessage) { log(level: .fault, message) }
}
