/// This process's identity among the processes that share a ledger, and a way to tell whether
/// another one is still running.
///
/// A `purchasing` transaction records the session whose sheet it waits on
/// (``PaymentTransaction/ownerSession``). ``PaymentQueue/launch()`` takes over, and shows again, only
/// those with no owner, owned by this session, or owned by a session that is no longer alive: a
/// purchase whose app crashed comes back, one that another running storefront is showing does not.
public struct AppSession: Sendable {
  /// Unique among the processes that may share a ledger at one time (the CLI uses pid, start time
  /// and boot id).
  public var id: String
  /// Whether the process of another session is still running. Asked only for ids other than ``id``.
  public var isAlive: @Sendable (String) -> Bool

  public init(id: String, isAlive: @escaping @Sendable (String) -> Bool) {
    self.id = id
    self.isAlive = isAlive
  }

  /// A process alone with its ledger (in-memory stores, unit tests): every other session is taken
  /// for dead, so every `purchasing` transaction left in the ledger is recovered on launch.
  public static let solitary = AppSession(id: "solitary", isAlive: { _ in false })
}
