/// One row of the key table: which keys, where, what they ask for, and what the help says.
public struct KeyBinding: Hashable, Sendable {
  /// Where the keys apply.
  public let scope: KeyScope
  /// The keys the hint bar names (the help overlay lists them first).
  public let keys: [Key]
  /// Further keys that do the same, listed in the help overlay and Docs/TUI.md but not the hint bar.
  public let alternates: [Key]
  /// What the keys ask for.
  public let intent: KeyIntent
  /// The help overlay's text. Neighbouring bindings of a scope with the same text share one row.
  public let help: String

  /// A binding of `keys` (then `alternates`) to `intent` in `scope`.
  public init(_ scope: KeyScope, _ keys: [Key], or alternates: [Key] = [], _ intent: KeyIntent, help: String) {
    self.scope = scope
    self.keys = keys
    self.alternates = alternates
    self.intent = intent
    self.help = help
  }

  /// Every key bound: ``keys``, then ``alternates``.
  public var allKeys: [Key] { keys + alternates }
}
