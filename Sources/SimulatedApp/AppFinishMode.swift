import Foundation

/// When the simulated app calls `finishTransaction`: the tester does it, the app does it as soon
/// as StoreKit reports a purchase, or the app first asks its own server (seed 002).
public enum AppFinishMode: Sendable, Equatable, CustomStringConvertible {
  /// The tester finishes in the Transactions pane (or a scenario's `finish` line).
  case manually
  /// Right after `purchased`, `restored` or `failed` (seeds 000 and 003).
  case atOnce
  /// A purchase is POSTed to the app's server at this URL and finished only on a 2xx answer;
  /// `restored` and `failed` are finished at once, as seed 002 does.
  case afterServer(url: String)

  /// `manually`, `at-once` or `after-server URL`: how options, scenario lines and the Settings pane spell it.
  public var description: String {
    switch self {
    case .manually: "manually"
    case .atOnce: "at-once"
    case .afterServer(let url): "after-server \(url)"
    }
  }

  /// The server's URL in the "after its server answers" mode.
  public var serverURL: String? {
    if case .afterServer(let url) = self { return url }
    return nil
  }

  /// What a mode spelled wrong was, in words that say what to write instead.
  public struct ParseError: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// Parses `manually`, `at-once` or `after-server URL` (also `after-server=URL`), URL an http or https URL.
  public init(parsing text: String) throws(ParseError) {
    let words = text.replacingOccurrences(of: "after-server=", with: "after-server ").split(separator: " ").map(String.init)
    switch words.first {
    case "manually" where words.count == 1: self = .manually
    case "at-once" where words.count == 1: self = .atOnce
    case "after-server":
      guard words.count == 2 else {
        throw ParseError(description: "'after-server' needs the app's server URL, such as after-server http://127.0.0.1:8080/verify.")
      }
      guard Self.isHTTPURL(words[1]) else {
        throw ParseError(description: "Invalid app server URL '\(words[1])'; use an http or https URL such as http://127.0.0.1:8080/verify.")
      }
      self = .afterServer(url: words[1])
    default:
      throw ParseError(description: "Unknown app-finishes mode '\(text)'; use manually, at-once or after-server URL.")
    }
  }

  /// Whether `text` is an http or https URL with a host.
  public static func isHTTPURL(_ text: String) -> Bool {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
    return ["http", "https"].contains(scheme) && url.host != nil
  }
}
