import Foundation

/// Where a storefront's data lives when nothing names it: `$STOREFRONT_DATA_DIR`, else
/// `$XDG_DATA_HOME/storefront`, else `$HOME/.local/share/storefront`. Empty variables are ignored,
/// as the XDG spec asks. The CLI's `--data-dir` default and an attached app's store agree by it.
public enum DefaultDataDirectory {
  public static func path(environment: [String: String]) -> String {
    func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
    if let fromEnvironment = nonEmpty(environment["STOREFRONT_DATA_DIR"]) { return fromEnvironment }
    if let xdg = nonEmpty(environment["XDG_DATA_HOME"]) { return (xdg as NSString).appendingPathComponent("storefront") }
    let home = nonEmpty(environment["HOME"]) ?? NSHomeDirectory()
    return (home as NSString).appendingPathComponent(".local/share/storefront")
  }
}
