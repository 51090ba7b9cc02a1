import AppStoreServerAPI
import Foundation
import StoreTUI

/// The Settings pane's server fault: the "all endpoints" fault of the data directory's fault plan,
/// which every serving process on it reads at each request (the TUI's own `--serve` included).
enum ServerFaultSettings {
  static func access(directory: URL) -> ServerFaultAccess {
    let file = FaultPlanFile(directory: directory)
    return ServerFaultAccess(
      read: { setting(file.read().everyEndpoint) },
      write: { setting in
        let answer: FaultPlan.Answer? =
          switch setting.answer {
          case .off: nil
          case .rateLimit: .rateLimitExceeded
          case .internalError: .generalInternal
          case .retryable: .generalInternalRetryable
          }
        let delay: Duration? = setting.delayMilliseconds > 0 ? .milliseconds(setting.delayMilliseconds) : nil
        do throws(FaultPlanFile.WriteError) {
          try file.update { plan in
            plan.everyEndpoint = answer == nil && delay == nil ? nil : FaultPlan.Fault(answer: answer, delay: delay)
          }
        } catch {
          return error.description
        }
        return nil
      })
  }

  /// What the pane shows for the plan's fault (a count-limited one from a scenario shows as unlimited).
  static func setting(_ fault: FaultPlan.Fault?) -> ServerFaultSetting {
    let answer: ServerFaultSetting.Answer =
      switch fault?.answer {
      case nil: .off
      case .rateLimitExceeded: .rateLimit
      case .generalInternal: .internalError
      case .generalInternalRetryable: .retryable
      }
    let milliseconds = fault?.delay.map { Int($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? 0
    return ServerFaultSetting(answer: answer, delayMilliseconds: milliseconds)
  }
}
