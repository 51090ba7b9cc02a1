import AppStoreServerAPI
import Foundation
import StoreScenario

/// Carries out `server-fault` lines on a data directory's fault plan, which `storefront serve` on
/// the same directory reads at every request.
enum ServerFaultControl {
  /// Applies `fault` to the plan in `directory`; returns what went wrong, or nil.
  static func apply(_ fault: ServerFault, in directory: URL) -> String? {
    let file = FaultPlanFile(directory: directory)
    // nil: every endpoint (`all`, or everything for `clear`).
    let target: APIEndpoint?
    switch fault {
    case .verifyReceipt(let status, let count):
      return update(file) { plan in plan.verifyReceipt = ReceiptFault(status: status, remaining: count) }
    case .off("verifyReceipt"):
      return update(file) { plan in plan.verifyReceipt = nil }
    case .clear: target = nil
    case .off(let name), .set(let name, _, _, _):
      guard name == "all" || APIEndpoint(rawValue: name) != nil else {
        let names = APIEndpoint.allCases.map(\.rawValue) + ["verifyReceipt"]
        return "Unknown App Store Server API endpoint '\(name)'.\(NearMatchText.didYouMean(name, in: names + ["all"])) Use one of \(names.joined(separator: ", ")), or all."
      }
      target = APIEndpoint(rawValue: name)
    }
    do throws(FaultPlanFile.WriteError) {
      try file.update { plan in
        switch fault {
        case .clear:
          plan = FaultPlan()
        case .off:
          if let endpoint = target { plan.faults[endpoint] = nil } else { plan.everyEndpoint = nil }
        case .verifyReceipt:
          break
        case .set(_, let answer, let delay, let count):
          let injected = FaultPlan.Fault(answer: answer.map(Self.answer), delay: delay, remaining: count)
          if let endpoint = target { plan.faults[endpoint] = injected } else { plan.everyEndpoint = injected }
        }
      }
    } catch {
      return error.description
    }
    return nil
  }

  private static func update(_ file: FaultPlanFile, _ change: (inout FaultPlan) -> Void) -> String? {
    do throws(FaultPlanFile.WriteError) { try file.update(change) } catch { return error.description }
    return nil
  }

  private static func answer(_ answer: ServerFault.Answer) -> FaultPlan.Answer {
    switch answer {
    case .rateLimit: .rateLimitExceeded
    case .internalError: .generalInternal
    case .retryable: .generalInternalRetryable
    }
  }
}
