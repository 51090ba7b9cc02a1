/// Why the deliverer could not start.
public enum DeliveryError: Error, Equatable, CustomStringConvertible {
  /// The data directory could not be watched for commits (inotify or a pipe refused; errno's words).
  case watch(String)
  /// The ledger could not be opened or read (its message).
  case ledger(String)

  public var description: String {
    switch self {
    case .watch(let reason): "cannot watch the data directory for commits: \(reason)"
    case .ledger(let message): message
    }
  }
}
