/// A path to a value inside a JSON document, written as in error messages: `products[2].displayPrice`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
  /// One step: an object member or an array element.
  public enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  public var components: [Component]

  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// The document itself.
  public static let root = JSONPath()

  /// This path followed by the member `key`.
  public func appending(_ key: String) -> JSONPath {
    JSONPath(components + [.key(key)])
  }

  /// This path followed by the array element at `index`.
  public func appending(_ index: Int) -> JSONPath {
    JSONPath(components + [.index(index)])
  }

  /// `products[2].displayPrice`, or `(top level)` for the root.
  public var description: String {
    if components.isEmpty { return "(top level)" }
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return text
  }
}
